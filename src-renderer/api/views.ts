/**
 * Views (docs/views.md): stored queries administered as records at `/views` and run by
 * `GET /<org>/v2/views/<name>`. The console edits the records and runs them like any client.
 */
import { queryOptions } from '@tanstack/react-query';
import { mintToken } from './tokens';
import type { OrgClient } from './org-client';
import type { ObjectRecord } from './records';
import { buildQueryString } from './query-string';
import type { ListEnvelope } from './types';

export type ViewComponentName = 'where' | 'sort';

export interface ViewRange {
  settable?: boolean;
  defaultValue?: number;
  min?: number;
  max?: number;
}

export interface ViewPaths {
  settable?: boolean;
  defaultValue?: string[];
  limitTo?: string[];
}

export interface ViewAclEntry {
  type: 'role' | 'account';
  target: string;
  allow?: number;
}

/**
 * A variable the view declares (docs/views.md#variables): `defaultValue` is the argument as a
 * caller would type it, taken by a run that leaves it out; `description` says what it wants.
 */
export interface ViewVariable {
  name: string;
  defaultValue?: string;
  description?: string;
}

/** A view record; only the fields the console edits are typed. */
export interface ViewRecord {
  _id: string;
  name: string;
  label?: string;
  description?: string;
  active?: boolean;
  sourceObject: string;
  principal?: string | null;
  limit?: ViewRange;
  skip?: ViewRange;
  paths?: ViewPaths;
  acl?: ViewAclEntry[];
  query?: { name: string; value: string }[];
  variables?: ViewVariable[];
}

export type ViewDraft = Omit<ViewRecord, '_id'>;

export const viewKeys = {
  all: (org: string) => ['org', org, 'views'] as const,
  run: (org: string, name: string, args: Record<string, string>) => ['org', org, 'views', 'run', name, args] as const,
};

/** `{{name}}` in a component's text (the service's template syntax, views/template.ts). */
const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;

/** Every variable a view's query components name, in first-seen order. */
export function viewVariables(view: Pick<ViewRecord, 'query'>): string[] {
  const names: string[] = [];
  for (const component of view.query ?? []) {
    for (const match of component.value.matchAll(VARIABLE)) {
      const name = match[1]!;
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** The run's arguments: variables, and limit/skip when given; blank values are left out. */
export function runArguments(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** The exact URL a client calls to run the view with these arguments. */
export function viewRunUrl(origin: string, org: string, name: string, args: Record<string, string>): string {
  return `${origin}/${encodeURIComponent(org)}/v2/views/${encodeURIComponent(name)}${buildQueryString(args)}`;
}

export function viewsQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: viewKeys.all(orgClient.org),
    queryFn: async ({ signal }): Promise<ViewRecord[]> =>
      (await orgClient.get<ListEnvelope<ViewRecord>>('views', { query: { limit: 1000, sort: '{"name":1}' }, signal }))
        .data,
  });
}

/** Saves a view; the service validates it (query parser, ranges, acl targets) and answers a fault naming the field. */
export function saveView(orgClient: OrgClient, draft: ViewDraft, id?: string): Promise<ViewRecord> {
  return id === undefined
    ? orgClient.post<ViewRecord>('views', draft)
    : orgClient.request<ViewRecord>('PATCH', `views/${encodeURIComponent(id)}`, { body: draft });
}

/** Replaces a view's acl (who may run it) and nothing else. */
export function setViewAcl(orgClient: OrgClient, id: string, acl: ViewAclEntry[]): Promise<ViewRecord> {
  return orgClient.request<ViewRecord>('PATCH', `views/${encodeURIComponent(id)}`, { body: { acl } });
}

export async function deleteView(orgClient: OrgClient, id: string): Promise<void> {
  await orgClient.request('DELETE', `views/${encodeURIComponent(id)}`);
}

export interface ViewPage {
  rows: ObjectRecord[];
  hasMore: boolean;
}

export async function runView(
  orgClient: OrgClient,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<ViewPage> {
  const envelope = await orgClient.get<ListEnvelope<ObjectRecord>>(`views/${encodeURIComponent(name)}`, {
    query: args,
    signal,
  });
  return { rows: envelope.data, hasMore: envelope.hasMore === true || envelope.hasMore === 'true' };
}

/** The one scope a view's reader needs (and nothing else: no object.read). */
export const viewScope = (name: string) => `view.execute.${name}`;

/** Mints a token for `accountId` through the console's app that may run this view and nothing else. */
export function mintViewToken(orgClient: OrgClient, accountId: string, name: string, expiresIn: number) {
  return mintToken(orgClient, accountId, { app: orgClient.appKey, scope: [viewScope(name)], expiresIn });
}
