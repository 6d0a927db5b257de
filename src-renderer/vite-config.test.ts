/** Issue #13, item 17: production builds of the console carry no source maps. */
import { describe, expect, it } from 'vitest';
import type { UserConfig, UserConfigFnObject } from 'vite';
import config from './vite.config.js';

const resolve = (mode: string) =>
  (config as UserConfigFnObject)({ mode, command: 'build', isSsrBuild: false, isPreview: false }) as UserConfig;

describe('console build', () => {
  it('emits source maps for development builds only', () => {
    expect(resolve('production').build?.sourcemap).toBe(false);
    expect(resolve('development').build?.sourcemap).toBe(true);
  });
});
