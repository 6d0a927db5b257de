import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { randomAlphanumeric } from '../crypto/random.js';

/** A crashed importer's lock lapses after this; an import runs in seconds. */
const LOCK_MS = 10 * 60 * 1000;

/**
 * One import (or deployment) per org at a time, across processes: the lock is a row in the
 * database, taken in a write transaction, so a second service or the CLI on the same data folder
 * sees it too. Returns the release function.
 */
export function acquireImportLock(svc: Service, orgId: number): () => void {
  const holder = randomAlphanumeric(16);
  const now = svc.clock.now();
  svc.db
    .transaction(() => {
      svc.db.prepare('DELETE FROM environment_locks WHERE org_id = ? AND expires < ?').run(orgId, now);
      const taken = svc.db.prepare(
        'INSERT OR IGNORE INTO environment_locks (org_id, holder, expires) VALUES (?, ?, ?)',
      );
      if (taken.run(orgId, holder, now + LOCK_MS).changes === 0) {
        throw fault('accessDenied', 'deploymentInProgress', {
          reason: 'Another import or deployment into this org is in progress.',
        });
      }
    })
    .immediate();
  return () => {
    svc.db.prepare('DELETE FROM environment_locks WHERE org_id = ? AND holder = ?').run(orgId, holder);
  };
}
