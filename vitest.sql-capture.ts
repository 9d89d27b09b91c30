import { afterAll } from 'vitest';
import { installSqlCapture } from './server/src/architecture/testing/sql-capture.ts';

// Each test file records the statements its servers send (issue 33); a test after all the others reads
// them (server/src/architecture/sql-sent.after.test.ts). Every file of the `packages` project runs in a
// process of its own, so node-postgres is patched once per file.
const capture = installSqlCapture();
afterAll(() => capture?.flush());
