/**
 * The project's own `a2a-temporal setup` against a fresh server (the namespace and the search
 * attributes), as an operator runs it; used by `npm run test:cluster` and the bench's server-cost run.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../../platform/paths.js';

/** The project's own setup command, as an operator runs it: creates the namespace, registers the search attributes. */
export function runSetup(address: string, namespace: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const setup = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(packageRoot, 'client', 'cli.ts'),
        'setup',
        '--address',
        address,
        '--namespace',
        namespace,
      ],
      { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    setup.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    setup.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    setup.once('exit', (code) =>
      code === 0 ? resolve(out.trim().split('\n').join('; ')) : reject(new Error(`a2a-temporal setup failed:\n${out}`)),
    );
  });
}
