import type { Service } from '../service/service.js';
import type { Org } from '../service/orgs/orgs.js';
import { CliError } from './args.js';

/**
 * `admin app …`, `admin account …`, `admin org …`: each returns what to print as JSON (last line).
 * TODO(#4): implement (placeholders until then).
 */
export async function runAppCommand(_svc: Service, _org: Org, args: string[]): Promise<unknown> {
  throw new CliError(`app ${args[0] ?? ''}: not implemented yet`);
}

export async function runAccountCommand(_svc: Service, _org: Org, args: string[]): Promise<unknown> {
  throw new CliError(`account ${args[0] ?? ''}: not implemented yet`);
}

export async function runOrgCommand(_svc: Service, _org: Org, args: string[]): Promise<unknown> {
  throw new CliError(`org ${args[0] ?? ''}: not implemented yet`);
}
