/**
 * The package as a user gets it: `npm pack` of this checkout, installed into a blank project made
 * from test/fixtures/blank-project/ in a temp folder. Every command runs in a child process that
 * `stopAll` ends, so nothing outlives the test, even when it fails.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../platform/paths.js';

export const BLANK_PROJECT = join(packageRoot, 'test', 'fixtures', 'blank-project');

interface PackageJson {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

export interface Finished {
  stdout: string;
  stderr: string;
  /** Wall time, ms. */
  ms: number;
}

const running = new Set<ChildProcess>();

/**
 * Runs a command to its end; rejects with its output when it fails. Our own `npm_*` variables
 * (set when this runs under `npm test`) are not passed on: they would configure the child's npm.
 */
export function run(
  cwd: string,
  command: string,
  args: string[],
  { env = {}, timeoutMs }: { env?: Record<string, string>; timeoutMs: number },
): Promise<Finished> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd, env: { ...inherited, NO_COLOR: '1', ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        running.delete(child);
        if (!error) return resolve({ stdout, stderr, ms: performance.now() - started });
        const output = `${stdout}\n${stderr}`.trim().slice(-4_000);
        reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${error.message}\n${output}`));
      },
    );
    running.add(child);
  });
}

/** Kills every command still running (after a failure or a timeout of the test). */
export function stopAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface PackedFile {
  path: string;
  size: number;
}

export interface Packed {
  tarball: string;
  /** Bytes of the .tgz. */
  size: number;
  files: PackedFile[];
  ms: number;
}

/** `npm pack` of this checkout into `dir` (its `prepare` script builds dist/ first). */
export async function packPackage(dir: string): Promise<Packed> {
  const done = await run(packageRoot, 'npm', ['pack', '--json', '--pack-destination', dir], { timeoutMs: 300_000 });
  const [report] = JSON.parse(done.stdout) as [{ filename: string; size: number; files: PackedFile[] }];
  return { tarball: join(dir, report.filename), size: report.size, files: report.files, ms: done.ms };
}

/** The version of a package in our own node_modules: the blank project gets the same one (from the npm cache). */
function ourVersion(name: string): string {
  return readPackageJson(join(packageRoot, 'node_modules', name)).version;
}

/**
 * The fixture's files in `dir`, then `npm install` of the tarball (npm adds its peer
 * dependencies, @temporalio/*) and of the TypeScript and Node.js types we build with.
 */
export async function createBlankProject(dir: string, tarball: string): Promise<Finished> {
  cpSync(BLANK_PROJECT, dir, { recursive: true });
  return run(
    dir,
    'npm',
    [
      'install',
      tarball,
      `typescript@${ourVersion('typescript')}`,
      `@types/node@${ourVersion('@types/node')}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    { timeoutMs: 600_000 },
  );
}

/** The last line of stdout, parsed (the worker's log lines may come before it). */
export function lastJsonLine<T>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}
