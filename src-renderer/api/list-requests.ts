/**
 * The parameters of list requests, apart from the modules that send them, so query keys can name
 * them without importing the request code (which imports the keys).
 */

/** One list request, in the form the service reads (docs/API.md#addressing-and-envelopes, docs/query-semantics.md). */
export interface ListRequest {
  where?: Record<string, unknown> | undefined;
  sort?: Record<string, 1 | -1> | undefined;
  skip?: number | undefined;
  limit: number;
  paths?: readonly string[] | undefined;
}

export interface AccountsPageParams {
  skip: number;
  limit: number;
  /** A query object (docs/query-semantics.md); sent as URL-encoded JSON. */
  where?: Record<string, unknown>;
  sort?: Record<string, 1 | -1>;
}
