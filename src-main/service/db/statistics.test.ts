import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ANALYSIS_LIMIT, refreshStatistics } from './statistics.js';

function db() {
  const d = new Database(':memory:');
  for (const t of ['loaded', 'other', 'still'])
    d.exec(`CREATE TABLE ${t} (k INTEGER); CREATE INDEX ${t}_k ON ${t} (k)`);
  return d;
}
function fill(d: Database.Database, table: string, n: number) {
  const insert = d.prepare(`INSERT INTO ${table} (k) VALUES (?)`);
  d.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(i % 50);
  })();
}
const rows = (d: Database.Database, table: string) =>
  Number(
    (d.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ?').get(table) as { stat: string } | undefined)?.stat.split(
      ' ',
    )[0],
  );

describe('statistics after a bulk load', () => {
  it('describe the loaded table as it is now, not as it was at the last ANALYZE', () => {
    const d = db();
    fill(d, 'loaded', 2);
    d.exec('ANALYZE');
    fill(d, 'loaded', 5000);
    expect(rows(d, 'loaded')).toBe(2); // what the planner would go on believing
    refreshStatistics(d, ['loaded']);
    expect(rows(d, 'loaded')).toBe(5002);
  });

  it('also catch other tables that drifted 25× from their statistics, and leave the rest alone', () => {
    const d = db();
    fill(d, 'other', 2);
    fill(d, 'still', 100);
    d.exec('ANALYZE');
    fill(d, 'other', 1000);
    fill(d, 'still', 10);
    refreshStatistics(d, []);
    expect(rows(d, 'other')).toBe(1002);
    expect(rows(d, 'still')).toBe(100);
  });

  it('are bounded: no sqlite_stat4 samples (a full scan of every index), and the limit stays set', () => {
    const d = db();
    fill(d, 'loaded', 3000);
    d.exec('ANALYZE');
    const stat4 = () => (d.prepare('SELECT count(*) AS n FROM sqlite_stat4').get() as { n: number }).n;
    expect(stat4()).toBeGreaterThan(0); // this build keeps them for a full ANALYZE
    refreshStatistics(d, ['loaded']);
    expect(stat4()).toBe(0);
    expect(d.pragma('analysis_limit', { simple: true })).toBe(ANALYSIS_LIMIT);
  });

  it('refuse a table name that is not a plain identifier', () => {
    expect(() => refreshStatistics(db(), ['x"; DROP TABLE loaded; --'])).toThrow(/bad table name/);
  });
});
