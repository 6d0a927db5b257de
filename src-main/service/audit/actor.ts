/**
 * Who acted, as an audit entry records it: the account, how it came (session, token and its
 * `jti`, signed request and its app, the command line) and from which address — or the script a
 * write came from. A script's writes happen in its host calls, answered in the async context that
 * started the run (scripting/runner.ts): `asScript` marks that context, so an audit entry written
 * anywhere below a host call names the script.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../access/caller.js';

export interface AuditActor {
  type: 'session' | 'token' | 'signature' | 'script' | 'cli' | 'system';
  account?: string;
  email?: string;
  app?: string;
  jti?: string;
  script?: string;
  scriptType?: string;
  address?: string;
}

const scripts = new AsyncLocalStorage<{ script?: string; scriptType: string }>();

/** Runs `fn` (a script's run) so that what it writes is audited as the script's. */
export function asScript<T>(script: { script?: string; scriptType: string }, fn: () => T): T {
  return scripts.run(script, fn);
}

/** `actor`, or the script whose host call is running, acting as `actor`'s account. */
export function withRunningScript(actor: AuditActor): AuditActor {
  const running = scripts.getStore();
  if (!running) return actor;
  return {
    ...actor,
    type: 'script',
    scriptType: running.scriptType,
    ...(running.script ? { script: running.script } : {}),
  };
}

export const CLI_ACTOR: AuditActor = { type: 'cli' };
export const SYSTEM_ACTOR: AuditActor = { type: 'system' };

/** The actor of what a caller does: its account and, when it came over HTTP, how. */
export function callerActor(caller: Caller): AuditActor {
  const origin = caller.origin;
  return {
    type: origin && origin.via !== 'anonymous' ? origin.via : 'system',
    ...(caller.accountId ? { account: caller.accountId } : {}),
    ...(origin?.app ? { app: origin.app } : {}),
    ...(origin?.jti ? { jti: origin.jti } : {}),
    ...(origin?.address ? { address: origin.address } : {}),
  };
}
