import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * After the run, the test files that took longest, so that growth shows up in every `npm test`:
 * wall time per file split into import (loading the file and everything it imports) and tests (its
 * tests and hooks). MRN_SLOWEST_FILES sets how many (default 15, 0 for none). When import durations
 * are collected (`--experimental.importDurations.limit=20`), the imports that cost most summed over
 * the isolated files follow.
 */
export default class SlowestFilesReporter implements Reporter {
  private vitest: Vitest | undefined;
  private readonly count = Number(process.env.MRN_SLOWEST_FILES ?? 15);

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!this.vitest || this.count <= 0 || testModules.length === 0) return;
    const rows = testModules.map((m) => {
      const d = m.diagnostic();
      const setup = d.environmentSetupDuration + d.prepareDuration + d.setupDuration;
      return {
        file: m.relativeModuleId,
        project: m.project.name,
        total: setup + d.collectDuration + d.duration,
        importMs: d.collectDuration,
        testsMs: d.duration,
        // A file of a non-isolated project (vitest.config.ts) shares its worker's modules: the import
        // times it reports are those of whichever file loaded each module first, so they are left out.
        imports: m.project.config.isolate ? d.importDurations : {},
      };
    });
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
    const log = (line: string) => this.vitest!.logger.log(line);
    log('');
    log(
      `Slowest test files (of ${rows.length}; all files: import ${s(sum((r) => r.importMs)).trim()}, tests ${s(sum((r) => r.testsMs)).trim()}):`,
    );
    log(`${'total'.padStart(8)}${'import'.padStart(8)}${'tests'.padStart(8)}  file`);
    for (const r of [...rows].sort((a, b) => b.total - a.total).slice(0, this.count)) {
      log(`${s(r.total)}${s(r.importMs)}${s(r.testsMs)}  ${r.file}${r.project ? ` [${r.project}]` : ''}`);
    }
    // Imports summed over files: a heavy dependency is paid once per isolated file (its own module graph).
    const byImport = new Map<string, { ms: number; files: number }>();
    for (const r of rows) {
      for (const [id, d] of Object.entries(r.imports)) {
        if (id.endsWith(r.file)) continue; // the test file itself: its row above
        const name = id.replace(`${this.vitest.config.root}/`, '');
        const e = byImport.get(name) ?? { ms: 0, files: 0 };
        e.ms += d.totalTime;
        e.files += 1;
        byImport.set(name, e);
      }
    }
    if (byImport.size > 0) {
      log('');
      log('Costliest imports, summed over files (time includes what they import):');
      for (const [name, e] of [...byImport].sort((a, b) => b[1].ms - a[1].ms).slice(0, this.count)) {
        log(`${s(e.ms)} ${String(e.files).padStart(4)} files  ${name}`);
      }
    }
  }
}
