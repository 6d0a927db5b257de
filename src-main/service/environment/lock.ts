import { hostname } from 'node:os';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { randomAlphanumeric } from '../crypto/random.js';

/** A crashed importer's lock lapses after this; an import runs in seconds. */
const LOCK_MS = 10 * 60 * 1000;

/**
 * One import (or deployment) per org at a time, across processes: the lock is a row in the
 * database, taken in a write transaction, so a second service or the CLI on the same data folder
 * sees it too. The holder names its host and process, so a lock left by a process that was killed
 * on this machine is taken over at once instead of blocking imports until it lapses. Returns the
 * release function.
 */
export function acquireImportLock(svc: Service, orgId: number): () => void {
  const holder = `${hostname()}:${process.pid}:${randomAlphanumeric(16)}`;
  const now = svc.clock.now();
  svc.db
    .transaction(() => {
      svc.db.prepare('DELETE FROM environment_locks WHERE org_id = ? AND expires < ?').run(orgId, now);
      const current = svc.db.prepare('SELECT holder FROM environment_locks WHERE org_id = ?').pluck().get(orgId) as
        string | undefined;
      if (current !== undefined && heldByDeadProcess(current)) {
        svc.db.prepare('DELETE FROM environment_locks WHERE org_id = ? AND holder = ?').run(orgId, current);
      }
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

/** True only when the holder is a process of this host that no longer exists; anything else may be alive. */
function heldByDeadProcess(holder: string): boolean {
  const m = /^(.+):(\d+):[A-Za-z0-9]+$/.exec(holder);
  if (!m || m[1] !== hostname()) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
