import { describe, expect, it } from 'vitest';
import { parseRoute, serializeRoute } from './screens';
import { parseConfigurationParams } from '../features/configuration/configuration-route';
import { parseViewsParams } from '../features/views/views-route';

describe('configuration and views routes', () => {
  it('round-trips through the hash and refuses odd input', () => {
    const route = parseRoute('#/configuration?tab=deployments&deployment=0123456789abcdef01234567');
    expect(route).toEqual({ screen: 'configuration', tab: 'deployments', deployment: '0123456789abcdef01234567' });
    expect(serializeRoute(route)).toBe('#/configuration?tab=deployments&deployment=0123456789abcdef01234567');
    expect(parseConfigurationParams(new URLSearchParams('tab=nope&deployment=x'))).toEqual({ tab: 'export' });
    expect(serializeRoute(parseRoute('#/views?name=open_convs'))).toBe('#/views?name=open_convs');
    expect(parseViewsParams(new URLSearchParams('name=%3Cscript%3E'))).toEqual({});
  });
});
