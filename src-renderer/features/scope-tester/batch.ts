/**
 * The tester's batch: object requests (operation, type, instance, property) and executions (the
 * script runner, a script route, a view, a deployment) decided against a set of scope chains with
 * the very matcher the service uses (`checkScope`, src-shared/scopes).
 */
import {
  OBJECT_OPERATIONS,
  checkScope,
  type ObjectOperation,
  type ObjectScopeRequest,
  type ScopeDecision,
  type ScopeRequest,
} from '../../../src-shared/scopes';

export type Verdict = 'allowed' | 'denied';

/** The object operations, plus `execute` (its "type" names what runs: see EXECUTE_TARGETS). */
export const ROW_OPERATIONS = [...OBJECT_OPERATIONS, 'execute'] as const;
export type RowOperation = (typeof ROW_OPERATIONS)[number];

/** What an `execute` row runs; the instance column then names the route, view or deployment. */
export const EXECUTE_TARGETS = ['runner', 'route', 'script', 'view', 'deployment'] as const;

export interface TestRow {
  operation: RowOperation;
  /** `account`, or `type#subtype`; for `execute`, one of EXECUTE_TARGETS. */
  objectType: string;
  /** Empty for lists and creation; for `execute`, the route, view or deployment (id or code). */
  instanceId: string;
  /** Empty for the whole object. */
  propertyPath: string;
  /** What the test case expects; undefined = no expectation yet. */
  expected?: Verdict;
}

export interface RowResult {
  /** A reason the row cannot be asked at all (bad type name, bad id…). */
  problem?: string;
  decision?: ScopeDecision;
  verdict?: Verdict;
  /** Compared with `expected`, when there is one and the row could be asked. */
  outcome?: 'pass' | 'fail';
}

const TYPE = /^[a-z][a-z0-9_]{0,63}(#[a-z][a-z0-9_]{0,63})?$/;
const ID = /^[0-9a-f]{24}$/i;
const PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63})*$/;

/**
 * What the object-type column offers: the org's object types for object operations, what runs
 * for `execute` — and the row's own value when it is neither (a loaded test case, a subtype), so a
 * choice is never lost by showing the list.
 */
export function typeChoices(operation: RowOperation, current: string, typeNames: readonly string[]): string[] {
  const offered = operation === 'execute' ? [...EXECUTE_TARGETS] : [...typeNames].sort();
  return current === '' || offered.includes(current) ? offered : [current, ...offered];
}

export function emptyRow(): TestRow {
  return { operation: 'read', objectType: 'account', instanceId: '', propertyPath: '' };
}

export function isOperation(value: unknown): value is RowOperation {
  return typeof value === 'string' && (ROW_OPERATIONS as readonly string[]).includes(value);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export type RowAsked = { ok: true; request: ScopeRequest } | { ok: false; problem: string };

/** The matcher's request for a row, or the reason the row is not a request. */
export function rowRequest(row: TestRow): RowAsked {
  return row.operation === 'execute' ? executeRequest(row) : objectRequest(row, row.operation);
}

/**
 * `execute` rows: `runner` (the ad-hoc script runner), `route` (a script route, optionally one by
 * id or code), `script` (script execution in general), `view` / `deployment` (one by id or code).
 */
function executeRequest(row: TestRow): RowAsked {
  const target = row.objectType.trim();
  const identifier = row.instanceId.trim();
  if (row.propertyPath.trim() !== '') return { ok: false, problem: 'an execution names no property' };
  if (identifier !== '' && !ID.test(identifier) && !IDENTIFIER.test(identifier)) {
    return { ok: false, problem: `"${identifier}" is not an id or a code name` };
  }
  const named = identifier === '' ? {} : { identifier: ID.test(identifier) ? identifier.toLowerCase() : identifier };
  switch (target) {
    case 'runner':
    case 'script':
      if (identifier !== '') return { ok: false, problem: `${target} takes no identifier` };
      return { ok: true, request: { kind: 'script', action: target === 'runner' ? 'runner' : 'execute' } };
    case 'route':
      return { ok: true, request: { kind: 'script', action: 'route', ...named } };
    case 'view':
    case 'deployment':
      if (identifier === '') return { ok: false, problem: `name the ${target} (id or code) in the instance column` };
      return { ok: true, request: { kind: target, identifier: named.identifier ?? identifier } };
    default:
      return { ok: false, problem: `to execute, the type is one of ${EXECUTE_TARGETS.join(', ')}` };
  }
}

function objectRequest(
  row: TestRow,
  operation: ObjectOperation,
): { ok: true; request: ObjectScopeRequest } | { ok: false; problem: string } {
  const type = row.objectType.trim();
  if (!TYPE.test(type))
    return { ok: false, problem: `"${type}" is not an object type name (e.g. account, c_patientfile)` };
  const instanceId = row.instanceId.trim();
  if (instanceId !== '' && !ID.test(instanceId))
    return { ok: false, problem: 'the instance id must be 24 hex characters' };
  if (instanceId !== '' && operation === 'create') {
    return { ok: false, problem: 'a create names no instance (it does not exist yet)' };
  }
  const propertyPath = row.propertyPath.trim();
  if (propertyPath !== '' && !PATH.test(propertyPath))
    return { ok: false, problem: `"${propertyPath}" is not a property path` };
  const [objectType = type, subtype] = type.split('#');
  const request: ObjectScopeRequest = { kind: 'object', operation, objectType };
  if (subtype) request.subtype = subtype;
  if (instanceId !== '') request.instanceId = instanceId.toLowerCase();
  if (propertyPath !== '') request.propertyPath = propertyPath;
  return { ok: true, request };
}

export function evaluateRow(chains: readonly string[], row: TestRow): RowResult {
  const asked = rowRequest(row);
  if (!asked.ok) return { problem: asked.problem };
  const decision = checkScope(chains, asked.request);
  const verdict: Verdict = decision.allowed ? 'allowed' : 'denied';
  const result: RowResult = { decision, verdict };
  if (row.expected !== undefined) result.outcome = row.expected === verdict ? 'pass' : 'fail';
  return result;
}

export function evaluateBatch(chains: readonly string[], rows: readonly TestRow[]): RowResult[] {
  return rows.map((row) => evaluateRow(chains, row));
}

export interface BatchSummary {
  allowed: number;
  denied: number;
  invalid: number;
  passed: number;
  failed: number;
}

export function summarizeBatch(results: readonly RowResult[]): BatchSummary {
  const summary: BatchSummary = { allowed: 0, denied: 0, invalid: 0, passed: 0, failed: 0 };
  for (const result of results) {
    if (result.problem !== undefined) summary.invalid += 1;
    else if (result.verdict === 'allowed') summary.allowed += 1;
    else summary.denied += 1;
    if (result.outcome === 'pass') summary.passed += 1;
    if (result.outcome === 'fail') summary.failed += 1;
  }
  return summary;
}

/** What a pasted JWT says about scope; the token is read, never verified (the service does that). */
export interface TokenScope {
  scopes: string[];
  roles: string[];
  subject?: string;
  issuer?: string;
  expires?: number;
}

export type DecodedToken = { ok: true; token: TokenScope } | { ok: false; problem: string };

/** Reads `service/scp` and `service/rls` from a JWT's payload. Trust boundary: pasted text. */
export function decodeTokenScope(jwt: string): DecodedToken {
  const text = jwt.trim().replace(/^Bearer\s+/i, '');
  if (text === '') return { ok: false, problem: 'Paste a token.' };
  const parts = text.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) {
    return { ok: false, problem: 'This is not a JWT: expected three base64url parts separated by dots.' };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(base64UrlDecode(parts[1] ?? ''));
  } catch {
    return { ok: false, problem: 'The token payload is not base64url-encoded JSON.' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, problem: 'The token payload is not a JSON object.' };
  }
  const claims = payload as Record<string, unknown>;
  const scp = claims['service/scp'];
  const rls = claims['service/rls'];
  const strings = (value: unknown): string[] | null =>
    value === undefined ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  const scopes = strings(scp);
  const roles = strings(rls);
  if (scopes === null) return { ok: false, problem: 'The token\'s "service/scp" claim is not a list of chains.' };
  if (roles === null) return { ok: false, problem: 'The token\'s "service/rls" claim is not a list of role ids.' };
  const token: TokenScope = { scopes, roles };
  if (typeof claims.sub === 'string') token.subject = claims.sub;
  if (typeof claims.iss === 'string') token.issuer = claims.iss;
  if (typeof claims.exp === 'number') token.expires = claims.exp;
  return { ok: true, token };
}

function base64UrlDecode(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
