/** The API reference has no state in the URL (the renderer keeps its own place):  #/api-reference */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a screen without state
export interface ApiReferenceState {}

declare module '../../routing/route' {
  interface ScreenStates {
    'api-reference': ApiReferenceState;
  }
}

export const parseApiReferenceParams = (): ApiReferenceState => ({});
export const writeApiReferenceParams = (): void => undefined;
