import { basename, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The workspace's packages and what counts as test code, for the architecture tests. No heavy imports:
// every test file's SQL capture (sql-capture.ts) loads it.

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export const SERVICES = ['command-api', 'query-api', 'projections', 'webhook-dispatcher'] as const;
export const SHARED = ['contracts', 'platform'] as const;
/** Composition root and tools: may import any package (but web only contracts, DESIGN §2). */
export const COMPOSITION = ['server', 'e2e', 'bench', 'web', 'billing-test-server'] as const;
export const PACKAGES = [...SHARED, ...SERVICES, ...COMPOSITION];

/** Tests and the helpers only tests use: `*.test.ts`, `testing.ts`, `test-*.ts`, `testing/…`. */
export function isTestCode(path: string): boolean {
  const name = basename(path);
  return (
    /\.test\.tsx?$/.test(name) ||
    /^testing\.tsx?$/.test(name) ||
    /^test-[^/]*\.tsx?$/.test(name) ||
    path.split(sep).includes('testing')
  );
}
