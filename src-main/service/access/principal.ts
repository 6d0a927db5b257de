/** The account a request acts as, as authentication found it (roles as the account holds them). */
export interface Principal {
  accountId: string;
  email: string;
  roles: readonly string[];
}

/** Whom an app or a principal override names: the principal, or why it cannot be one. */
export type PrincipalLookup = { principal: Principal } | { problem: string };
