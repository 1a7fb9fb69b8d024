/** Runs the real `a2a-temporal` CLI (sources, through tsx) in a child process against the run's dev server. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../platform/paths.js';
import { temporalServer } from './temporal.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCliProcess(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const server = temporalServer();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(packageRoot, 'client', 'cli.ts'), ...args],
      {
        cwd: packageRoot,
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: server.address,
          TEMPORAL_NAMESPACE: server.namespace,
          A2A_TEMPORAL_UI_URL: server.uiUrl,
          NO_COLOR: '1',
          ...env,
        },
        timeout: 120_000,
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
