/**
 * `go install` from the Go module proxy into a folder of our own: the one route to Go binaries
 * on machines that reach package registries only (the temporal CLI's fallback, the production
 * Temporal server and its schema tool for `npm run test:cluster`).
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { firstCommand, firstLine, run } from './commands.js';

/** The `go` command when it runs here, else undefined. */
export function findGo(): Promise<string | undefined> {
  return firstCommand(['go'], ['version']);
}

/**
 * Builds `packages` (each `module/path/cmd/x@version`) into `gobin`. Several packages of one
 * module at one version build in one call (and share its compiled dependencies).
 * @throws Error with go's first line of output when the build fails.
 */
export async function goInstall(packages: string[], gobin: string, flags: string[] = []): Promise<void> {
  try {
    await run('go', ['install', ...flags, ...packages], {
      env: { ...process.env, GOBIN: gobin },
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    throw new Error(`go install ${packages.join(' ')} failed: ${firstLine(err)}`, { cause: err });
  }
}

/** The folder `go mod download` put `module@version` in (for files a module ships, such as schemas). */
export async function goModuleDir(moduleAtVersion: string): Promise<string> {
  const { stdout } = await run('go', ['mod', 'download', '-json', moduleAtVersion], { maxBuffer: 16 << 20 });
  const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  if (!dir) throw new Error(`go mod download ${moduleAtVersion} did not say where the module is`);
  return dir;
}

/**
 * Builds `pkg` (a package path inside the module, e.g. `./cmd/jaeger`) of `moduleAtVersion` from
 * the module proxy into `out`: in a copy of the module, as its own main module, for modules whose
 * go.mod has `replace` directives (`go install module/pkg@version` refuses those). The module's
 * own go.mod and go.sum decide every dependency, exactly as its release build does.
 * @throws Error with go's first line of output when the build fails.
 */
export async function goBuildFromModule(
  moduleAtVersion: string,
  pkg: string,
  out: string,
  flags: string[] = [],
): Promise<void> {
  const source = `${out}.src`;
  rmSync(source, { recursive: true, force: true });
  try {
    cpSync(await goModuleDir(moduleAtVersion), source, { recursive: true });
    writable(source);
    await run('go', ['build', ...flags, '-o', out, pkg], {
      cwd: source,
      env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    throw new Error(`go build ${pkg} of ${moduleAtVersion} failed: ${firstLine(err)}`, { cause: err });
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

/** The module cache is read-only; the copy must not be (go writes go.sum updates, rm must remove it). */
function writable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) writable(path);
    else chmodSync(path, 0o644);
  }
}

/**
 * Fills `folder` by `build(tmp)`: built in a temporary folder and renamed into place, so a cached
 * folder is complete or absent and an interrupted build leaves nothing half-made behind.
 */
export async function buildInto(folder: string, build: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${folder}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await build(tmp);
    renameSync(tmp, folder);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
