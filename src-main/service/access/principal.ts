/** The account a request acts as, as authentication found it (roles as the account holds them). */
export interface Principal {
  accountId: string;
  email: string;
  roles: readonly string[];
}
