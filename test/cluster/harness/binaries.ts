/**
 * The production Temporal server, its schema tool and (optionally) the Web UI server, built by
 * module name with `go install` from the Go module proxy and cached in `.cache/go-bin/<name>-<version>/`
 * (git-ignored). A cached folder is complete or absent: each is built in a temporary folder and
 * renamed into place, so an interrupted build leaves nothing half-made behind.
 */
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildInto, goInstall, goModuleDir } from '../../../platform/go-install.js';
import { cacheDir } from '../../../platform/paths.js';

/** The server the deployment files and the cluster test are written for. */
export const TEMPORAL_SERVER_VERSION = 'v1.32.0';
/** The UI server of the temporal CLI 1.9.1's era; ≥ 2.56 needs Go 1.26.10. */
export const UI_SERVER_VERSION = 'v2.54.1';

const SERVER_MODULE = 'go.temporal.io/server';
const UI_MODULE = 'github.com/temporalio/ui-server/v2';
/** Smaller binaries (about 150 MB instead of 210 for the server); nothing needs their debug data. */
const BUILD_FLAGS = ['-trimpath', '-ldflags=-s -w'];

export interface ServerBinaries {
  /** `server --config-file … start` */
  server: string;
  /** The schema tool (`temporal-sql-tool` in Temporal's images). */
  sqlTool: string;
  /** `schema/postgresql/v12` of the server module: `temporal/` and `visibility/`, each with `versioned/`. */
  postgresSchema: string;
}

export function serverBinariesCached(): boolean {
  return existsSync(serverFolder());
}

export function uiServerCached(): boolean {
  return existsSync(uiFolder());
}

/** @returns the binaries and whether they had to be built. @throws Error when `go install` fails. */
export async function ensureServerBinaries(): Promise<ServerBinaries & { built: boolean }> {
  const folder = serverFolder();
  const built = !existsSync(folder);
  if (built) {
    await buildInto(folder, async (tmp) => {
      await goInstall(
        [
          `${SERVER_MODULE}/cmd/server@${TEMPORAL_SERVER_VERSION}`,
          `${SERVER_MODULE}/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
        ],
        join(tmp, 'bin'),
        BUILD_FLAGS,
      );
      const module = await goModuleDir(`${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`);
      cpSync(join(module, 'schema', 'postgresql', 'v12'), join(tmp, 'schema', 'postgresql', 'v12'), {
        recursive: true,
      });
    });
  }
  return {
    server: join(folder, 'bin', 'server'),
    sqlTool: join(folder, 'bin', 'sql'),
    postgresSchema: join(folder, 'schema', 'postgresql', 'v12'),
    built,
  };
}

/** @returns the UI server's binary and whether it had to be built. */
export async function ensureUiServer(): Promise<{ path: string; built: boolean }> {
  const folder = uiFolder();
  const built = !existsSync(folder);
  if (built) {
    await buildInto(folder, (tmp) =>
      goInstall([`${UI_MODULE}/cmd/server@${UI_SERVER_VERSION}`], join(tmp, 'bin'), BUILD_FLAGS),
    );
  }
  return { path: join(folder, 'bin', 'server'), built };
}

function serverFolder() {
  return join(cacheDir, 'go-bin', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

function uiFolder() {
  return join(cacheDir, 'go-bin', `temporal-ui-server-${UI_SERVER_VERSION}`);
}
