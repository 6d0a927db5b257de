/**
 * The part of Scalar's standalone bundle (`@scalar/api-reference`, dist/browser/standalone.js)
 * the reference page uses: it sets `window.Scalar` when loaded.
 */
export interface ScalarReference {
  updateConfiguration(configuration: Record<string, unknown>): void;
  destroy(): void;
}

export interface ScalarGlobal {
  createApiReference(target: string | Element, configuration: Record<string, unknown>): ScalarReference;
}
