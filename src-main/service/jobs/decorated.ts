/**
 * Jobs that libraries register with the original's `@job(cron, {principal, active, name})`
 * (issue 41): read at save (scripting/language/registrations.ts, which checks the five fields),
 * each is a job of the org's table like a `type: "job"` record, keyed in `job_runs` by
 * `<library _id>:<Class.method>`; its run evaluates the library and calls the decorated method
 * with `{runtime}` (`runtime.job` in the prelude).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ScriptRegistration } from '../scripting/language/registrations.js';
import { libraryRegistrations, libraryScripts, type LibraryScript } from '../scripting/host-library.js';
import { dispatchSource } from '../scripting/decorator-routes.js';
import { parseSchedule, type JobDef } from './job-def.js';

export function jobOfRegistration(lib: LibraryScript, reg: ScriptRegistration): JobDef | undefined {
  const c = reg.configuration;
  if (reg.type !== 'job' || typeof c.cron !== 'string') return undefined;
  let schedule;
  try {
    schedule = parseSchedule(c.cron);
  } catch {
    return undefined;
  }
  const handler = `${reg.metadata.className}.${reg.metadata.methodName}`;
  return {
    key: `${lib._id}:${handler}`,
    scriptId: lib._id,
    label: typeof reg.name === 'string' && reg.name !== '' ? reg.name : handler,
    cron: c.cron.trim(),
    ...(typeof c.principal === 'string' && c.principal !== '' ? { principal: c.principal } : {}),
    source: dispatchSource(lib, reg),
    schedule,
    handler,
    active: lib.active && c.active !== false,
  };
}

/** The jobs the org's libraries register (inactive ones too, for the console; `active` says). */
export function decoratedJobs(svc: Service, org: Org): JobDef[] {
  return libraryScripts(svc, org).flatMap((lib) =>
    libraryRegistrations(lib).flatMap((reg) => jobOfRegistration(lib, reg) ?? []),
  );
}
