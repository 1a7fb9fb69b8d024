/**
 * The package as a user installs it: `npm pack` of this checkout, installed with its peer
 * dependencies into a blank project (test/fixtures/blank-project/: strict NodeNext TypeScript),
 * whose code is type-checked against the INSTALLED declarations, then bundled and run against the
 * dev server: the user's workflow delegates with `delegateTo`, and a worker with only the plugin
 * runs `delegate`. Nothing here imports our sources: everything runs from the tarball's dist/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegateResult } from '../../../contract/index.js';
import { packageRoot } from '../../../platform/paths.js';
import { temporalServer, uniqueTaskQueue } from '../../helpers/temporal.js';
import {
  BLANK_PROJECT,
  createBlankProject,
  lastJsonLine,
  packPackage,
  readPackageJson,
  run,
  stopAll,
  type Packed,
} from './blank-project.js';

const ours = readPackageJson(packageRoot);
/** The targets of package.json "exports" and "bin", as paths in the tarball. */
const targets = [
  ...Object.values(ours.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target))),
  ...Object.values(ours.bin),
].map((target) => target.replace(/^\.\//, ''));
const entries = Object.keys(ours.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => `a2a-temporal${subpath.slice(1)}`);

const text = (result: DelegateResult): string =>
  result.artifacts.map((a) => a.parts.map((p) => ('text' in p ? p.text : '')).join('')).join('\n');

describe('the packed package, installed into a blank project', () => {
  const work = mkdtempSync(join(tmpdir(), 'a2a-pack-'));
  const project = join(work, 'project');
  const figures: Record<string, string> = {};
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  let packed: Packed;

  beforeAll(async () => {
    packed = await packPackage(work);
    mkdirSync(project);
    const installed = await createBlankProject(project, packed.tarball);
    Object.assign(figures, {
      tarball: `${(packed.size / 1024).toFixed(0)} KB, ${packed.files.length} files`,
      pack: seconds(packed.ms),
      install: seconds(installed.ms),
    });
  }, 900_000);

  afterAll(() => {
    stopAll();
    rmSync(work, { recursive: true, force: true });
    const summary = Object.entries(figures).map(([name, value]) => `${name} ${value}`);
    console.info(`pack-and-use: ${summary.join(', ')}`);
  });

  it('ships compiled JavaScript and declarations: no .ts sources, no test/ or bench/, every exports and bin target', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths.filter((path) => /\.[cm]?ts$/.test(path) && !/\.d\.[cm]?ts$/.test(path))).toEqual([]);
    expect(paths.filter((path) => /^(test|bench)\//.test(path))).toEqual([]);
    expect(targets.filter((target) => !paths.includes(target))).toEqual([]);
    const declarations = packed.files.filter((file) => file.path.endsWith('.d.ts'));
    figures['.d.ts'] = `${(declarations.reduce((sum, file) => sum + file.size, 0) / 1024).toFixed(0)} KB`;
  });

  it('resolves every entry of "exports" at run time from the installed package', async () => {
    const { stdout } = await run(
      project,
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const entries = ${JSON.stringify(entries)};
         const counts = {};
         for (const entry of entries) counts[entry] = Object.keys(await import(entry)).length;
         console.log(JSON.stringify(counts));`,
      ],
      { timeoutMs: 60_000 },
    );
    const counts = lastJsonLine<Record<string, number>>(stdout);
    expect(Object.keys(counts)).toEqual(entries);
    for (const entry of entries) expect(counts[entry], entry).toBeGreaterThan(0);
  });

  it("type-checks the user's workflows and worker, and every entry, against the installed declarations", async () => {
    const named = [...readFileSync(join(BLANK_PROJECT, 'entries.ts'), 'utf8').matchAll(/from '([^']+)'/g)];
    expect(named.map((m) => m[1]).sort()).toEqual([...entries].sort());
    // One `tsc` (strict, NodeNext): the check, and the JavaScript the next test runs.
    const { ms } = await run(project, 'npx', ['tsc'], { timeoutMs: 180_000 });
    figures.tsc = seconds(ms);
  });

  it('runs a workflow that delegates with delegateTo, and the plugin alone runs delegate, on the dev server', async () => {
    const { ms, stdout } = await run(project, process.execPath, ['run.js'], {
      env: { TEMPORAL_ADDRESS: temporalServer().address, TASK_QUEUE: uniqueTaskQueue('pack') },
      timeoutMs: 180_000,
    });
    figures.run = seconds(ms);
    const { upgrade, delegate } = lastJsonLine<{ upgrade: DelegateResult[]; delegate: DelegateResult }>(stdout);

    expect(upgrade).toHaveLength(2);
    const [analysis, sorted] = upgrade as [DelegateResult, DelegateResult];
    for (const result of [analysis, sorted, delegate]) {
      expect(result).toMatchObject({ agent: 'compat', kind: 'task', state: 'TASK_STATE_COMPLETED' });
      expect(result.taskId).toMatch(/\S/);
    }
    expect(sorted.contextId).toBe(analysis.contextId);
    expect(sorted.taskId).not.toBe(analysis.taskId);
    expect(text(analysis)).toContain('# Compatibility report: payment-service 1.4.0 on Node.js 24');
    expect(text(analysis)).toContain('| node-sass | ^7.0.3 | sass ^1.77.0 | high |');
    expect(text(sorted)).toMatch(/^# Fix suggestions by risk \(Node\.js 24\)\n\n1\. \*\*\S+\*\* \(high\)/);
    expect(text(delegate)).toBe(text(analysis));
  });
});

describe('the README section "Delegate from your own workflow"', () => {
  it("shows the blank project's workflows.ts and worker.ts as they are", () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Delegate from your own workflow'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    for (const file of ['workflows.ts', 'worker.ts']) {
      expect(block).toContain(`// ${file}\n${readFileSync(join(BLANK_PROJECT, file), 'utf8')}`);
    }
  });
});
