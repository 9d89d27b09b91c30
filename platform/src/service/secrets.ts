import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret of this installation: made by `generate` on first run and kept in DATA_DIR (readable by
 * its owner only), so each installation has its own and a restart keeps it. Two processes starting
 * at once agree: the file is created exclusively, and the one that loses reads the winner's.
 */
export function keptSecret(dataDir: string, fileName: string, generate: () => string): string {
  const file = join(dataDir, fileName);
  const read = () => {
    const kept = readFileSync(file, 'utf8').trim();
    if (!kept) throw new Error(`${file} is empty: delete it to have a new secret made`);
    return kept;
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return read();
  }
}

/** JWT_SECRET, or one generated on first run and kept in DATA_DIR so sessions survive restarts. */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  return keptSecret(dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url'));
}
