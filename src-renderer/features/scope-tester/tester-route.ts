/**
 * The scope tester in the URL (everything but a pasted token, which is a credential):
 *
 *   #/scope-tester?chain=object.read.account.*.name
 *                 &source=chains&chains=object.read.account,script.execute&roles=<id>,<id>
 *                 &rows=read:account::name:allowed;update:account:<id>::denied
 *
 * Row fields are operation:type:instance:path:expected — none of them can contain ":" or ";".
 * Trust boundary: hash input. Texts are length-capped and kept as typed (chains are judged by the
 * shared parser, rows by `rowRequest`); anything malformed is dropped.
 */
import { isOperation, type TestRow } from './batch';
import type { ScreenRoute } from '../../routing/route';

export type TokenSource = 'chains' | 'token';

export interface TesterState {
  /** The chain in the parser box. */
  chain: string;
  source: TokenSource;
  /** Chains being tested, one per line. */
  chains: string;
  roles: string[];
  rows: TestRow[];
}

declare module '../../routing/route' {
  interface ScreenStates {
    'scope-tester': TesterState;
  }
}

export type ScopeTesterRoute = ScreenRoute<'scope-tester'>;

const MAX_TEXT = 20_000;
const MAX_ROWS = 200;
const ROLE_ID = /^[0-9a-f]{24}$/i;
const FIELD = /^[^:;]{0,512}$/;

export const DEFAULT_TESTER_STATE: TesterState = { chain: '', source: 'chains', chains: '', roles: [], rows: [] };

export function parseTesterParams(params: URLSearchParams): TesterState {
  const state: TesterState = { ...DEFAULT_TESTER_STATE, roles: [], rows: [] };
  const chain = params.get('chain');
  if (chain !== null && chain.length <= 1000) state.chain = chain;
  if (params.get('source') === 'token') state.source = 'token';
  const chains = params.get('chains');
  if (chains !== null && chains.length <= MAX_TEXT) state.chains = chains;
  const roles = params.get('roles');
  if (roles)
    state.roles = roles
      .split(',')
      .filter((id) => ROLE_ID.test(id))
      .slice(0, 100);
  const rows = params.get('rows');
  if (rows) state.rows = decodeRows(rows);
  return state;
}

export function writeTesterParams(state: TesterState, params: URLSearchParams): void {
  if (state.chain !== '') params.set('chain', state.chain);
  if (state.source !== 'chains') params.set('source', state.source);
  if (state.chains !== '') params.set('chains', state.chains);
  if (state.roles.length > 0) params.set('roles', state.roles.join(','));
  if (state.rows.length > 0) params.set('rows', encodeRows(state.rows));
}

export function encodeRows(rows: readonly TestRow[]): string {
  return rows
    .map((row) =>
      [row.operation, row.objectType, row.instanceId, row.propertyPath, row.expected ?? '']
        .map((field) => field.replace(/[:;]/g, ''))
        .join(':'),
    )
    .join(';');
}

export function decodeRows(text: string): TestRow[] {
  if (text.length > MAX_TEXT) return [];
  const rows: TestRow[] = [];
  for (const item of text.split(';').slice(0, MAX_ROWS)) {
    const [operation, objectType = '', instanceId = '', propertyPath = '', expected = ''] = item.split(':');
    if (!isOperation(operation) || ![objectType, instanceId, propertyPath].every((f) => FIELD.test(f))) continue;
    const row: TestRow = { operation, objectType, instanceId, propertyPath };
    if (expected === 'allowed' || expected === 'denied') row.expected = expected;
    rows.push(row);
  }
  return rows;
}
