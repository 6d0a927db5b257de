/** Object definitions in the URL:  #/schemas?name=c_conversation  (hash input: a valid name or nothing). */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export interface SchemasState {
  /** The definition shown, by object name. */
  name?: string;
}

declare module '../../routing/route' {
  interface ScreenStates {
    schemas: SchemasState;
  }
}

export function parseSchemasParams(params: URLSearchParams): SchemasState {
  const name = params.get('name');
  return name !== null && SCHEMA_NAME.test(name) ? { name } : {};
}

export function writeSchemasParams(state: SchemasState, params: URLSearchParams): void {
  if (state.name !== undefined) params.set('name', state.name);
}
