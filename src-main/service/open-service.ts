import { existsSync, mkdirSync } from 'node:fs';
import { fault } from '../../src-shared/faults.js';
import { join } from 'node:path';
import { openDatabase, type SynchronousMode } from './db/open.js';
import { ensurePrivateFile, makeDatabaseFilesPrivate } from './db/private-files.js';
import { SecretCipher, loadMasterKey, MASTER_KEY_ENV } from './crypto/cipher.js';
import { Service } from './service.js';
import type { Clock } from './clock.js';
import type { ReplayLimits } from './auth/signatures/replay-store.js';
import { registerQueryFunctions } from './query/compile.js';
import { addMissingBuiltinDefinitions } from './objects/builtin-upgrade.js';
import { inheritedRoleDerivations } from './access/inherited-roles.js';
import { registerViewRecordRules } from './views/view-rules.js';
import { registerDeploymentRecordRules } from './environment/deployment-record-rules.js';
import { registerScriptRecordRules } from './scripting/script-rules.js';
import { registerPolicyRules } from './policies/policy-rules.js';
import { registerPolicyResources } from './policies/policy-env.js';
import { watchScriptWrites } from './scripting/script-generation.js';
import { registerTriggerRules } from './triggers/trigger-rules.js';
import { registerJobRules } from './jobs/job-rules.js';

export interface OpenServiceOptions {
  dataDir: string;
  clock?: Clock;
  /** 32-byte master key (the desktop shell's, from the OS keychain); default: env or key file. */
  masterKey?: Buffer;
  /** better-sqlite3 binary for Electron's ABI. */
  nativeBinding?: string;
  /** SQLite's `synchronous` level: `full` on the desktop, `normal` unless asked headless. */
  synchronous?: SynchronousMode;
  /** Bounds of the replay store (tests make them small enough to fill). */
  replayLimits?: Partial<ReplayLimits>;
}

export const DB_FILE = 'service.db';

/** Opens (creating if needed) a data dir: its database, migrations and master key. */
export function openService(opts: OpenServiceOptions): Service {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = join(opts.dataDir, DB_FILE);
  // Made 0600 before SQLite opens it: the -wal and -shm it creates take the main file's mode.
  ensurePrivateFile(file);
  const db = openDatabase({
    file,
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    ...(opts.synchronous ? { synchronous: opts.synchronous } : {}),
  });
  makeDatabaseFilesPrivate(file);
  registerQueryFunctions(db);
  const cipher = new SecretCipher(opts.masterKey ?? loadMasterKey(opts.dataDir));
  const svc = new Service({
    db,
    cipher,
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.replayLimits ? { replayLimits: opts.replayLimits } : {}),
  });
  // Derived properties (an account's inherited_roles) are wired here: the store stays below the
  // access model that computes them, and service.ts imports none of it.
  svc.store.derivations = inheritedRoleDerivations(svc);
  svc.openDataFolder = openExistingDataFolder;
  // The rules records of these types meet on every write (records/rules.ts), whoever writes them.
  registerViewRecordRules(svc);
  registerDeploymentRecordRules(svc);
  registerScriptRecordRules(svc);
  registerPolicyRules(svc);
  registerPolicyResources(svc);
  registerTriggerRules(svc);
  registerJobRules(svc);
  // The trigger and job tables are rebuilt when script records change, not on every write.
  watchScriptWrites(svc);
  addMissingBuiltinDefinitions(svc);
  return svc;
}

/**
 * Opens a data folder that already holds a service database (a deployment's folder target),
 * never creating one, and only when its master key can be read without making a new one (the
 * environment's key, or the folder's `master.key`): secrets written with a fresh key would be
 * unreadable to the folder's own service. The caller closes it (`svc.close()`).
 */
export function openExistingDataFolder(dataDir: string, clock?: Clock): Service {
  if (!existsSync(join(dataDir, DB_FILE))) {
    throw fault('notFound', 'dataFolder', {
      path: 'targetDataDir',
      reason: `${dataDir} holds no service database (${DB_FILE}).`,
    });
  }
  if (!process.env[MASTER_KEY_ENV] && !existsSync(join(dataDir, 'master.key'))) {
    throw fault('invalidArgument', 'dataFolder', {
      path: 'targetDataDir',
      reason: `${dataDir} has no master.key (a desktop app keeps it in the OS keychain): run the deployment where its key is available.`,
    });
  }
  return openService({ dataDir, ...(clock ? { clock } : {}) });
}
