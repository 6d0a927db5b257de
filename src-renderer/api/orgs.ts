import type { OrgClient } from './org-client';

/** `POST /developer/orgs`: the service operator only (an administrator of the org created at first start). */
export interface NewOrgRequest {
  code: string;
  name?: string;
  adminEmail: string;
  adminPassword: string;
}

export interface CreatedOrg {
  object: 'org';
  code: string;
  name: string;
  consoleAppKey: string;
}

export function createOrg(orgClient: OrgClient, request: NewOrgRequest): Promise<CreatedOrg> {
  return orgClient.post<CreatedOrg>('developer/orgs', request);
}
