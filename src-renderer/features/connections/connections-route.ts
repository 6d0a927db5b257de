/** The desktop app's saved connections have no state in the URL:  #/connections */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a screen without state
export interface ConnectionsState {}

declare module '../../routing/route' {
  interface ScreenStates {
    connections: ConnectionsState;
  }
}

export const parseConnectionsParams = (): ConnectionsState => ({});
export const writeConnectionsParams = (): void => undefined;
