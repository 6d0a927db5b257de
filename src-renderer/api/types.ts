/**
 * Shapes of the service responses the console reads (lead's contract + docs/faults.md).
 * Only the fields the console uses are typed; the rest pass through untouched.
 */

export interface ResultEnvelope<T> {
  object: 'result';
  data: T;
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  /** The spec shows one sample with `"false"` as a string; `normalizeList` folds both forms. */
  hasMore: boolean | 'true' | 'false';
}

/** A page of a list after normalisation. */
export interface ListPage<T> {
  items: T[];
  hasMore: boolean;
}

export interface OrgSummary {
  code: string;
  name: string;
  consoleAppKey: string;
}

export interface ServiceInfo {
  setupRequired: boolean;
  orgs: OrgSummary[];
  version: string;
  /** The org code the service was started for (`--org`), proposed by first-run setup. */
  defaultOrg?: string | null;
}

export interface SetupRequest {
  org: string;
  email: string;
  password: string;
  /** The org's display name (defaults to its code). */
  name?: string;
  adminName?: { first?: string; last?: string };
}

export interface SetupResult {
  org: string;
  consoleAppKey: string;
}

export interface AccountName {
  first?: string;
  last?: string;
}

export interface Account {
  _id: string;
  object: 'account';
  email: string;
  name?: AccountName;
  roles?: string[];
  state?: string;
  locked?: boolean;
  created?: string;
  updated?: string;
}

export interface SessionStatus {
  loggedin: boolean;
  account?: Account;
  /** The caller is the service operator (an administrator of the org created at first start): it may create orgs. */
  operator?: boolean;
}

export interface Credentials {
  email: string;
  password: string;
}

export function normalizeList<T>(envelope: ListEnvelope<T>): ListPage<T> {
  return { items: envelope.data, hasMore: envelope.hasMore === true || envelope.hasMore === 'true' };
}
