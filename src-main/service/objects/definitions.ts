import type { Db } from '../db/open.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { statements, type Statements } from '../db/statements.js';

/** Object definitions per org, kept in `object_defs` and cached in memory. */
export class DefinitionRepository {
  private readonly cache = new Map<number, Map<string, ObjectDef>>();
  private readonly sql: Statements;

  constructor(private readonly db: Db) {
    this.sql = statements(db);
  }

  all(orgId: number): ObjectDef[] {
    return [...this.load(orgId).values()];
  }

  byName(orgId: number, name: string): ObjectDef | undefined {
    return this.load(orgId).get(name);
  }

  byCollection(orgId: number, collection: string): ObjectDef | undefined {
    for (const def of this.load(orgId).values()) if (def.collection === collection) return def;
    return undefined;
  }

  save(orgId: number, def: ObjectDef): void {
    this.sql
      .fixed(
        `INSERT INTO object_defs (org_id, name, collection, def) VALUES (?, ?, ?, ?)
         ON CONFLICT (org_id, name) DO UPDATE SET def = excluded.def, collection = excluded.collection`,
      )
      .run(orgId, def.name, def.collection, JSON.stringify(def));
    this.cache.delete(orgId);
  }

  remove(orgId: number, name: string): void {
    this.sql.fixed('DELETE FROM object_defs WHERE org_id = ? AND name = ?').run(orgId, name);
    this.cache.delete(orgId);
  }

  /** Drops the cached definitions of an org (after a rolled-back transaction wrote some). */
  forget(orgId: number): void {
    this.cache.delete(orgId);
  }

  private load(orgId: number): Map<string, ObjectDef> {
    let defs = this.cache.get(orgId);
    if (!defs) {
      const rows = this.sql.fixed('SELECT def FROM object_defs WHERE org_id = ? ORDER BY name').all(orgId) as {
        def: string;
      }[];
      defs = new Map(rows.map((r) => JSON.parse(r.def) as ObjectDef).map((d) => [d.name, d]));
      this.cache.set(orgId, defs);
    }
    return defs;
  }
}
