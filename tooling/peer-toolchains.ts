/**
 * The test peers on other A2A SDKs (test/peers/): a Python agent on the official `a2a-sdk`
 * (installed with pip from PyPI into a venv) and a Go agent on `a2a-go` (built with the Go
 * module proxy). Both are cached under `.cache/peers/`, keyed by a hash of what they are built
 * from, so a second run finds them in milliseconds. A machine without python3 (with venv) or go
 * gets one sentence and no such peer; a toolchain that is there but fails to install is an error.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstCommand, firstLine, run } from '../platform/commands.js';
import { cacheDir, packageRoot } from '../platform/paths.js';

export type PeerToolchainName = 'python' | 'go';

/** How to start a peer agent: `command args…` in `cwd`, prints its base URL on its first stdout line. */
export interface PeerLaunch {
  command: string;
  args: string[];
  cwd: string;
}

export type PeerToolchain =
  | {
      peer: PeerToolchainName;
      ready: true;
      /** `cache` when nothing had to be installed. */
      route: 'cache' | 'pip' | 'go build';
      /** The SDK and toolchain, e.g. `a2a-sdk 1.3.0 on Python 3.11.7`. */
      detail: string;
      launch: PeerLaunch;
      seconds: number;
    }
  | { peer: PeerToolchainName; ready: false; /** One sentence: which tool is missing. */ reason: string };

const peersDir = join(packageRoot, 'test', 'peers');
export const PYTHON_PEER_DIR = join(peersDir, 'python');
export const GO_PEER_DIR = join(peersDir, 'go');
const PYTHON_REQUIREMENTS = join(PYTHON_PEER_DIR, 'requirements.txt');

/** Thrown when a toolchain is present but the peer cannot be installed or built with it. */
export class PeerSetupError extends Error {
  override readonly name = 'PeerSetupError';
}

/** Both peers, set up concurrently. */
export async function ensurePeerToolchains(log: (line: string) => void = () => {}): Promise<PeerToolchain[]> {
  return Promise.all([ensurePythonPeer(log), ensureGoPeer(log)]);
}

export function ensurePeerToolchain(
  name: PeerToolchainName,
  log: (line: string) => void = () => {},
): Promise<PeerToolchain> {
  return name === 'python' ? ensurePythonPeer(log) : ensureGoPeer(log);
}

/**
 * A venv with the pinned `test/peers/python/requirements.txt`, at
 * `.cache/peers/python/<hash of the requirements>/venv`.
 * @throws PeerSetupError when python3 is there but pip cannot install the requirements.
 */
export async function ensurePythonPeer(log: (line: string) => void = () => {}): Promise<PeerToolchain> {
  const started = Date.now();
  const requirements = readFileSync(PYTHON_REQUIREMENTS);
  const dir = join(cacheDir, 'peers', 'python', hashOf([requirements]));
  const interpreter = join(dir, 'venv', 'bin', 'python');
  const sdk = /^a2a-sdk(?:\[[^\]]*\])?==(\S+)/m.exec(requirements.toString())?.[1] ?? '?';
  const done = (route: 'cache' | 'pip', version: string): PeerToolchain => ({
    peer: 'python',
    ready: true,
    route,
    detail: `a2a-sdk ${sdk} on Python ${version}`,
    launch: { command: interpreter, args: [join(PYTHON_PEER_DIR, 'agent.py')], cwd: PYTHON_PEER_DIR },
    seconds: (Date.now() - started) / 1000,
  });
  // The venv's python links to the interpreter it was made with: while that one is there, so is Python.
  const marker = join(dir, 'ready');
  if (existsSync(marker) && existsSync(interpreter)) return done('cache', readFileSync(marker, 'utf8').trim());

  const python = await firstCommand(['python3', 'python'], ['-c', 'import venv, ensurepip']);
  if (!python) {
    return {
      peer: 'python',
      ready: false,
      reason: 'python3 with venv and pip is not installed, so the Python peer agent (a2a-sdk) cannot be set up.',
    };
  }
  rmSync(dir, { recursive: true, force: true }); // a venv whose interpreter is gone
  log(`installing the Python peer's pinned requirements (a2a-sdk ${sdk}) from PyPI into ${dir}`);
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    await run(python, ['-m', 'venv', join(staging, 'venv')]);
    // `python -m pip` (not bin/pip): the venv is renamed below, which breaks its scripts' shebangs, not its python.
    await run(
      join(staging, 'venv', 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', PYTHON_REQUIREMENTS],
      { maxBuffer: 16 << 20, timeout: 600_000 },
    );
    const { stdout: version } = await run(join(staging, 'venv', 'bin', 'python'), [
      '-c',
      'import sys; print(sys.version.split()[0])',
    ]);
    writeFileSync(join(staging, 'ready'), version);
    promote(staging, dir);
  } catch (err) {
    throw new PeerSetupError(
      `python -m venv and pip install -r test/peers/python/requirements.txt failed, so the Python peer agent is not available: ${firstLine(err)}`,
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return done('pip', readFileSync(marker, 'utf8').trim());
}

/**
 * `go build` of test/peers/go into `.cache/peers/go/<hash of go.mod, go.sum and the sources>/go-advisor`. Modules come from the Go module proxy (GOTOOLCHAIN=local: never a
 * toolchain download; -mod=readonly: go.sum decides).
 * @throws PeerSetupError when go is there but the build fails.
 */
export async function ensureGoPeer(log: (line: string) => void = () => {}): Promise<PeerToolchain> {
  const started = Date.now();
  const sources = readdirSync(GO_PEER_DIR)
    .filter((name) => name === 'go.mod' || name === 'go.sum' || name.endsWith('.go'))
    .sort();
  const goMod = readFileSync(join(GO_PEER_DIR, 'go.mod'), 'utf8');
  const dir = join(cacheDir, 'peers', 'go', hashOf(sources.map((name) => readFileSync(join(GO_PEER_DIR, name)))));
  const binary = join(dir, 'go-advisor');
  const sdk = /github\.com\/a2aproject\/a2a-go (\S+)/.exec(goMod)?.[1] ?? '?';
  const done = (route: 'cache' | 'go build'): PeerToolchain => ({
    peer: 'go',
    ready: true,
    route,
    detail: `a2a-go ${sdk}`,
    launch: { command: binary, args: [], cwd: GO_PEER_DIR },
    seconds: (Date.now() - started) / 1000,
  });
  // A static binary: it runs whether or not go is still installed.
  if (existsSync(binary)) return done('cache');

  const go = await firstCommand(['go'], ['version']);
  if (!go) {
    return {
      peer: 'go',
      ready: false,
      reason: 'go is not installed, so the Go peer agent (a2a-go 0.3) cannot be built.',
    };
  }
  log(`building the Go peer (a2a-go ${sdk}) with modules from the Go module proxy into ${dir}`);
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging, { recursive: true });
    await run(go, ['build', '-trimpath', '-mod=readonly', '-o', join(staging, 'go-advisor'), '.'], {
      cwd: GO_PEER_DIR,
      env: { ...process.env, GOTOOLCHAIN: 'local' },
      maxBuffer: 16 << 20,
      timeout: 600_000,
    });
    promote(staging, dir);
  } catch (err) {
    throw new PeerSetupError(
      `go build in test/peers/go failed, so the Go peer agent is not available: ${firstLine(err)}`,
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return done('go build');
}

function hashOf(parts: Array<Buffer | string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Moves a finished staging folder into place (a concurrent setup that got there first wins) and
 * drops the builds of earlier pins beside it.
 */
function promote(staging: string, dir: string): void {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  try {
    renameSync(staging, dir);
  } catch (err) {
    if (!existsSync(dir)) throw err;
  }
  for (const name of readdirSync(parent)) {
    if (join(parent, name) !== dir && !name.endsWith('.tmp'))
      rmSync(join(parent, name), { recursive: true, force: true });
  }
}
