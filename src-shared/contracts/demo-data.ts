/** The demo-data jobs of `POST /<org>/v2/demo-data/jobs`, one shape for the service and the console. */

/** Most accounts one seeding job creates: the same cap in the console, the route and the CLI's docs. */
export const MAX_SEED_ACCOUNTS = 1_000_000;

/**
 * What a running job is doing: writing records (`done` counts up to `total`), then rebuilding
 * indexes (bulk loads drop them and build them once at the end; `done` already equals `total`).
 */
export type SeedPhase = 'writing' | 'indexing';
