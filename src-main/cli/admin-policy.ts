/**
 * `admin policy list | disable --name X | enable --name X` (docs/cli.md): the way back for an
 * administrator a policy locks out of the console. Trust boundary: argv comes from whoever runs
 * the CLI on this machine, with the data folder's file access; the command works on the data
 * folder directly, so no request policy applies to it. Each switch leaves an audit entry.
 */
import { parseArgs } from 'node:util';
import { FaultError } from '../../src-shared/faults.js';
import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { recordAudit } from '../service/audit/record.js';
import { CLI_ACTOR } from '../service/audit/actor.js';
import { listPolicies, switchPolicy } from '../service/policies/policy-admin.js';
import { CliError } from './args.js';

export function runPolicyCommand(svc: Service, org: Org, args: string[]): unknown {
  const [sub, ...rest] = args;
  const name = (): string => {
    let values: { name?: string | boolean };
    try {
      ({ values } = parseArgs({ args: rest, options: { name: { type: 'string' } }, strict: true }));
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    if (typeof values.name !== 'string' || values.name === '') throw new CliError(`policy ${sub}: --name is required`);
    return values.name;
  };
  switch (sub) {
    case 'list':
      if (rest.length > 0) throw new CliError('usage: policy list');
      return listPolicies(svc, org);
    case 'disable':
    case 'enable': {
      const on = sub === 'enable';
      let policy;
      try {
        policy = switchPolicy(svc, org, name(), on);
      } catch (err) {
        if (err instanceof FaultError) throw new CliError(err.fault.reason ?? err.fault.message);
        throw err;
      }
      recordAudit(svc, org, CLI_ACTOR, {
        cat: 'settings',
        sub: 'policy',
        target: { object: 'policy', _id: policy.id },
        summary: `${on ? 'Enabled' : 'Disabled'} the policy ${policy.name} (command line).`,
        changes: ['active'],
      });
      return policy;
    }
    default:
      throw new CliError(`unknown policy command ${sub ?? ''} (list, disable --name X, enable --name X)`);
  }
}
