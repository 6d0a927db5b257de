/**
 * How the service's routes are described beyond what their JSON schemas say: the shape of one
 * operation's entry in the description tables (`operations-*.ts`), which `complete-document.ts`
 * merges into the OpenAPI document @fastify/swagger generates from the routes.
 *
 * Nothing here reaches Fastify: answers are documented, never attached as response schemas
 * (those would compile serializers that drop undeclared properties and so change the wire).
 */

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Statuses a fault can have (src-shared/faults.ts `FAULT_CATEGORIES`). */
export type FaultStatus = 400 | 403 | 404 | 409 | 413 | 429 | 500 | 501 | 504;

/** The tags of the reference, in the order it shows them (components.ts `TAGS`). */
export type Tag =
  | 'Service'
  | 'Sessions'
  | 'Account'
  | 'Account administration'
  | 'Applications'
  | 'Tokens'
  | 'Records'
  | 'Driver'
  | 'Schemas'
  | 'Views'
  | 'Scripts'
  | 'Configuration'
  | 'Organisation';

/**
 * Who may call, which selects the credentials the operation lists: `anyone` (no principal; org
 * routes still name their app), `principal` (a session, a token or a signed request),
 * `session` (a logged-in session of a session app only), `admin` (an org administrator), `setup`
 * (service-wide, before any org exists).
 */
export type CallerKind = 'anyone' | 'principal' | 'session' | 'admin' | 'setup';

export interface AnswerDoc {
  /** 200 unless given. */
  readonly status?: 200 | 201 | 204 | 302;
  readonly description: string;
  readonly schema?: JsonSchema;
  /** `application/json` unless given. */
  readonly contentType?: string;
  /** Further media types the operation answers with (e.g. NDJSON on `Accept`). */
  readonly alternatives?: Readonly<Record<string, JsonSchema>>;
}

export interface QueryParamDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
}

/** A request the reference shows, and that `examples.test.ts` sends: it must not be refused. */
export interface ExampleRequest {
  /** Path parameters other than `org`. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface OperationDoc {
  readonly summary: string;
  readonly description?: string;
  readonly tag: Tag;
  readonly caller: CallerKind;
  /**
   * The body of a route that checks its body itself (`ANY_BODY`, or a loose `{type:'object'}`):
   * documented here, never given to Fastify, so the domain's faults (naming the field) stay the
   * ones a caller sees. Routes whose schema describes the body fully leave this out.
   */
  readonly body?: { readonly schema: JsonSchema; readonly contentType?: string; readonly description?: string };
  /** Query arguments of a route that reads its query itself (`ANY_QUERY`). */
  readonly query?: readonly QueryParamDoc[];
  readonly answer: AnswerDoc;
  /** Statuses this operation answers with a fault besides the ones every route can (`COMMON_FAULTS`), and when. */
  readonly faults: Readonly<Partial<Record<FaultStatus, string>>>;
  readonly example?: ExampleRequest;
}

/** Keyed by `METHOD /path` as the description spells it: `POST /{org}/v2/accounts/login`. */
export type OperationTable = Readonly<Record<string, OperationDoc>>;
