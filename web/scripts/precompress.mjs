// Brotli and gzip copies of the built files, made once at build time so the server sends them as they
// are (@fastify/static `preCompressed`) instead of compressing on every request or not at all.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

let files = 0;
let before = 0;
let after = 0;
for (const name of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  const path = join(dist, name);
  if (!COMPRESSIBLE.test(name) || !statSync(path).isFile()) continue;
  const content = readFileSync(path);
  if (content.length < 1024) continue;
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  files += 1;
  before += content.length;
  after += br.length;
}
console.log(
  `precompressed ${files} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`,
);
