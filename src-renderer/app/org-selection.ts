import type { OrgSummary } from '../api/types';

/** The org the URL names if the service has it, else the default (first listed) org. */
export function selectOrg(orgs: readonly OrgSummary[], requested: string | undefined): OrgSummary | undefined {
  return orgs.find((org) => org.code === requested) ?? orgs[0];
}
