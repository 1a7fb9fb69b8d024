/** Runs the real `a2a-temporal` CLI (sources, through tsx) in a child process against the run's dev server. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { SAMPLE_MANIFEST_PATH } from '../../agents/index.js';
import { packageRoot } from '../../platform/paths.js';
import { stripUndefined } from '../../platform/strip-undefined.js';
import { temporalServer } from './temporal.js';

/** `release start` of the reference release (payment-service 1.4.0 → 2.0.0, the bundled manifest). */
export const SAMPLE_RELEASE_START = [
  'release',
  'start',
  '--service',
  'payment-service',
  '--from',
  '1.4.0',
  '--to',
  '2.0.0',
  '--manifest',
  SAMPLE_MANIFEST_PATH,
];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` is added to this process's environment; a value of undefined removes that variable. */
export function runCliProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const server = temporalServer();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(packageRoot, 'client', 'cli.ts'), ...args],
      {
        cwd: packageRoot,
        env: stripUndefined({
          ...process.env,
          TEMPORAL_ADDRESS: server.address,
          TEMPORAL_NAMESPACE: server.namespace,
          A2A_TEMPORAL_UI_URL: server.uiUrl,
          NO_COLOR: '1',
          ...env,
        }) as NodeJS.ProcessEnv,
        timeout: 120_000,
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
