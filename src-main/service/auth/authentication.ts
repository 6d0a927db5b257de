/**
 * What the auth code sees of a request and what it answers, as plain values: http/ translates a
 * Fastify request into a RequestInput and turns an Authentication into its RequestContext, so
 * nothing under auth/ depends on the web framework.
 */
import type { Org } from '../orgs/orgs.js';
import type { App } from '../apps/apps.js';
import type { Principal } from '../access/principal.js';

/** Header names are lower-case, as Node delivers them; a repeated header arrives as an array. */
export interface RequestHeaders {
  readonly [name: string]: string | string[] | undefined;
  readonly authorization?: string;
}

export interface RequestInput {
  method: string;
  /** The request target as sent: path and query string. */
  url: string;
  headers: RequestHeaders;
  /** The body as sent (bytes, or text for a text body); version-2 signatures sign its digest. */
  body?: Uint8Array | string;
}

/** Who is calling and through what. */
export interface Authentication {
  org: Org;
  app?: App;
  principal?: Principal;
  via: 'session' | 'signature' | 'token' | 'anonymous';
  /**
   * Effective scope chains when the caller is limited by scopes (tokens); undefined means the
   * caller is not scope-limited (session or signed request: the principal's own rights apply).
   */
  scopes?: string[];
  /** Token claims that change access (service/gnt, service/skp, service/skc). */
  grant?: number;
  skipAcl?: boolean;
  bypassCreateAcl?: boolean;
  /** The verified JWT claims when via === 'token'. */
  claims?: Record<string, unknown>;
}
