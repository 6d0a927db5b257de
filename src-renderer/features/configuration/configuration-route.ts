/**
 * Configuration in the URL:  #/configuration?tab=export|import|deployments&deployment=<_id>
 * Trust boundary: hash input, shape-checked only. Files and diffs stay in memory.
 */
import type { ScreenRoute } from '../../routing/route';

export const CONFIGURATION_TABS = ['export', 'import', 'deployments'] as const;
export type ConfigurationTab = (typeof CONFIGURATION_TABS)[number];

export interface ConfigurationState {
  tab: ConfigurationTab;
  /** The deployment open on the deployments tab. */
  deployment?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    configuration: ConfigurationState;
  }
}

export type ConfigurationRoute = ScreenRoute<'configuration'>;

const ID = /^[0-9a-f]{24}$/i;

export function parseConfigurationParams(params: URLSearchParams): ConfigurationState {
  const tab = params.get('tab');
  const state: ConfigurationState = {
    tab: (CONFIGURATION_TABS as readonly string[]).includes(tab ?? '') ? (tab as ConfigurationTab) : 'export',
  };
  const deployment = params.get('deployment');
  if (deployment !== null && ID.test(deployment)) state.deployment = deployment.toLowerCase();
  return state;
}

export function writeConfigurationParams(state: ConfigurationState, params: URLSearchParams): void {
  if (state.tab !== 'export') params.set('tab', state.tab);
  if (state.deployment) params.set('deployment', state.deployment);
}
