import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICON_PATHS as PATHS_16 } from './paths-16.ts';
import { ICON_PATHS as PATHS_20 } from './paths-20.ts';

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// `icon="plus"`, `leftIcon="lock"`, `icon: 'dashboard'`, `icon={'tick'}`, and both sides of
// `icon={locked ? 'lock' : 'warning-sign'}`.
const NAMED = /\b(?:icon|[a-zA-Z]+Icon)\s*[=:]\s*\{?\s*['"]([a-z0-9-]+)['"]/g;
const CHOSEN =
  /\b(?:icon|[a-zA-Z]+Icon)(?:=\{|:\s*)[^}\n]*\?\s*['"]([a-z0-9-]+)['"]\s*:\s*['"]([a-z0-9-]+)['"]/g;

function iconsNamed(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(SRC)) {
    if (/paths-\d+\.ts$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(NAMED)) found.set(match[1]!, file);
    for (const match of text.matchAll(CHOSEN)) {
      found.set(match[1]!, file);
      found.set(match[2]!, file);
    }
  }
  return found;
}

describe('the icons’ paths fetched in one chunk per size', () => {
  it('hold every icon the app names (one missing fetched every icon Blueprint has, issue 31)', () => {
    const named = iconsNamed();
    // The scan finds them: the sidebar's and a conditional one at least.
    expect(named.has('briefcase')).toBe(true);
    expect(named.has('warning-sign')).toBe(true);
    const missing = [...named]
      .filter(([name]) => !(name in PATHS_16))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it('hold the same icons at both sizes', () => {
    expect(Object.keys(PATHS_20)).toEqual(Object.keys(PATHS_16));
    for (const paths of [...Object.values(PATHS_16), ...Object.values(PATHS_20)]) {
      expect(paths?.length).toBeGreaterThan(0);
    }
  });
});
