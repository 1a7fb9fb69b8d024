/**
 * `go install` from the Go module proxy into a folder of our own: the one route to Go binaries
 * on machines that reach package registries only (the temporal CLI's fallback, the production
 * Temporal server and its schema tool for `npm run test:cluster`).
 */
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
