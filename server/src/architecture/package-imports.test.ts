import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 33: every package's package.json declares what its code imports, so a package can be read,
 * installed and moved on its own, and an import that crosses into another package shows in its manifest.
 * A package's code may import its own dependencies, devDependencies and peerDependencies; test code
 * (`*.test.ts`, and the helpers only tests import: files that import vitest) may also use the shared
 * tooling the root package.json declares (vitest, type packages). Imports are read with TypeScript's
 * pre-processor: static imports, re-exports and dynamic `import()` with a literal specifier.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILTINS = new Set(builtinModules);

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

function* sources(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'dist-types') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** The package an import specifier names, or null for a relative path or a Node built-in. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? null : name;
}

/** The bare specifiers a source file imports (static, re-export, literal dynamic import). */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** Each package's imports its manifest does not declare, as "package ← file". */
function undeclaredImports(): string[] {
  const root = manifest(ROOT);
  const shared = new Set(Object.keys(root.devDependencies ?? {}));
  const problems: string[] = [];
  for (const workspace of root.workspaces ?? []) {
    const dir = join(ROOT, workspace);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const own = manifest(dir);
    const declared = new Set([
      own.name,
      ...Object.keys(own.dependencies ?? {}),
      ...Object.keys(own.devDependencies ?? {}),
      ...Object.keys(own.peerDependencies ?? {}),
    ]);
    for (const file of sources(join(dir, 'src'))) {
      const specifiers = importsOf(readFileSync(file, 'utf8'));
      const names = specifiers.map(packageOf).filter((n): n is string => n !== null);
      const testCode = /\.test\.tsx?$/.test(file) || names.includes('vitest');
      for (const name of new Set(names)) {
        if (declared.has(name) || (testCode && shared.has(name))) continue;
        problems.push(`${own.name} imports ${name} ← ${relative(ROOT, file)}`);
      }
    }
  }
  return problems;
}

describe('package manifests', () => {
  it('reads the package of an import, and the imports of a file', () => {
    expect(packageOf('@mrn/server/testing')).toBe('@mrn/server');
    expect(packageOf('csv-parse/sync')).toBe('csv-parse');
    expect(packageOf('node:fs')).toBeNull();
    expect(packageOf('fs/promises')).toBeNull();
    expect(packageOf('./local.ts')).toBeNull();
    expect(
      importsOf(
        "import a from 'pg';\nexport { b } from '@x/y/z';\nconst c = await import('uuid');\nimport type { D } from 'zod';",
      ),
    ).toEqual(['pg', '@x/y/z', 'uuid', 'zod']);
  });

  it('declare every package their code imports', () => {
    expect(undeclaredImports()).toEqual([]);
  });
});
