import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds this package's package.json (works from sources and from `dist/`). */
export const packageRoot: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Ignored folder for everything the project downloads or builds for itself. */
export const cacheDir: string = resolve(process.env.A2A_TEMPORAL_CACHE_DIR ?? join(packageRoot, '.cache'));

/** Ignored folder for the embedded dev server's SQLite file. */
export const dataDir: string = resolve(process.env.A2A_TEMPORAL_DATA_DIR ?? join(packageRoot, '.data'));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'a2a-temporal'
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the a2a-temporal package root above ${start}`);
  }
}
