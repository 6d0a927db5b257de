import type { FetchLike } from './http';
import { sendJson } from './http';
import { toApiError } from './api-error';
import { OrgClient } from './org-client';
import type { OrgSummary, ResultEnvelope, ServiceInfo, SetupRequest, SetupResult } from './types';

/**
 * Entry point to the service: the unversioned `/_service` routes, and one OrgClient per org
 * (kept, so each org's CSRF token survives re-renders).
 */
export class ConsoleClient {
  private readonly fetchImpl: FetchLike;
  private readonly orgClients = new Map<string, OrgClient>();

  constructor(fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
    this.fetchImpl = fetchImpl;
  }

  async getServiceInfo(signal?: AbortSignal): Promise<ServiceInfo> {
    const { data } = await sendJson<ResultEnvelope<ServiceInfo>>(this.fetchImpl, {
      method: 'GET',
      url: '/_service/info',
      signal,
    });
    return data.data;
  }

  /** Whether the service serves the API reference page (`/_service/docs`, part of its console build). */
  async hasApiReference(signal?: AbortSignal): Promise<boolean> {
    const init: RequestInit = { method: 'HEAD', credentials: 'same-origin' };
    if (signal) init.signal = signal;
    try {
      return (await this.fetchImpl('/_service/docs', init)).ok;
    } catch (error) {
      throw toApiError(error);
    }
  }

  async setup(request: SetupRequest): Promise<SetupResult> {
    const { data } = await sendJson<ResultEnvelope<SetupResult>>(this.fetchImpl, {
      method: 'POST',
      url: '/_service/setup',
      body: request,
    });
    return data.data;
  }

  org(summary: Pick<OrgSummary, 'code' | 'consoleAppKey'>): OrgClient {
    const cacheKey = `${summary.code}\u0000${summary.consoleAppKey}`;
    let client = this.orgClients.get(cacheKey);
    if (!client) {
      client = new OrgClient(summary.code, summary.consoleAppKey, this.fetchImpl);
      this.orgClients.set(cacheKey, client);
    }
    return client;
  }
}
