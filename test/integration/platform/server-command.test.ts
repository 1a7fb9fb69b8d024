import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';

/** `a2a-temporal server` on free ports with this SQLite file; resolves once it says it is ready. */
async function serve(dbFile: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(packageRoot, 'client', 'cli.ts'),
      'server',
      '--port',
      '0',
      '--ui-port',
      '0',
      '--db-file',
      dbFile,
    ],
    {
      cwd: packageRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  const ready = await new Promise<{ address: string; ui: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const address = /ready at (\S+)/.exec(out)?.[1];
      const ui = /Web UI: (\S+)/.exec(out)?.[1];
      if (address && ui) resolve({ address, ui });
    });
    void exited.then(() => reject(new Error(`server exited early:\n${out}`)));
  });
  return {
    ...ready,
    async stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('a2a-temporal server', () => {
  it('serves the Web UI and keeps workflows across a restart on the same SQLite file', async () => {
    const dbFile = join(mkdtempSync(join(tmpdir(), 'a2a-server-')), 'temporal.sqlite');
    const first = await serve(dbFile);
    expect((await fetch(first.ui)).status).toBe(200);
    let connection = await Connection.connect({ address: first.address });
    await new Client({ connection }).workflow.start('release', {
      taskQueue: 'nobody-polls-this',
      workflowId: 'kept-across-restart',
      args: [],
    });
    await connection.close();
    expect(await first.stop()).toBe(0);

    const second = await serve(dbFile);
    connection = await Connection.connect({ address: second.address });
    const description = await new Client({ connection }).workflow.getHandle('kept-across-restart').describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.searchAttributes).toBeDefined();
    await connection.close();
    await second.stop();
  });
});
