import type { Db } from '../db/open.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { statements, type Statements } from '../db/statements.js';
import type { DataVersion } from '../db/data-version.js';

interface CachedDefs {
  generation: number;
  texts: Map<string, string>;
  defs: Map<string, ObjectDef>;
}

/**
 * Object definitions per org, kept in `object_defs` and cached in memory. The cache follows the
 * data version like the other caches, so a property another process added (the admin CLI, a second
 * service) is seen; definitions whose stored text did not change keep their object, because
 * per-definition caches elsewhere (compiled statements, hidden properties) are keyed on it.
 */
export class DefinitionRepository {
  private readonly cache = new Map<number, CachedDefs>();
  private readonly sql: Statements;

  constructor(
    private readonly db: Db,
    private readonly versions?: DataVersion,
  ) {
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
    const generation = this.versions?.current() ?? 0;
    const cached = this.cache.get(orgId);
    if (cached && cached.generation === generation) return cached.defs;
    const rows = this.sql.fixed('SELECT name, def FROM object_defs WHERE org_id = ? ORDER BY name').all(orgId) as {
      name: string;
      def: string;
    }[];
    if (cached && rows.length === cached.texts.size && rows.every((r) => cached.texts.get(r.name) === r.def)) {
      cached.generation = generation;
      return cached.defs;
    }
    const same = (r: { name: string; def: string }) => cached !== undefined && cached.texts.get(r.name) === r.def;
    const defs = new Map(
      rows.map((r) => [r.name, same(r) ? cached!.defs.get(r.name)! : (JSON.parse(r.def) as ObjectDef)] as const),
    );
    this.cache.set(orgId, { generation, texts: new Map(rows.map((r) => [r.name, r.def])), defs });
    return defs;
  }
}
