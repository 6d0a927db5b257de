import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { WORKER_SOURCES, type WorkerName } from './bundled-worker.js';

describe('bundled workers', () => {
  it('are each an entry of the main build, from the same source', () => {
    // The build script is plain JavaScript and cannot import this list; this keeps the two in step.
    const build = readFileSync(new URL('../../../scripts/build-main.mjs', import.meta.url), 'utf8');
    for (const [name, source] of Object.entries(WORKER_SOURCES) as [WorkerName, string][]) {
      expect(build).toContain(`'${name}': '${source}'`);
    }
  });
});
