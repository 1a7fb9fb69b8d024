/**
 * Global setup of `npm run test:faults`: forgets the cells of an earlier run, and after every
 * file has run prints the whole fault matrix and writes it to test/artifacts/fault-matrix.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { clearCells, MATRIX_FILE, matrixMarkdown, readCells } from './fault-matrix.js';
import { TOXIPROXY_VERSION } from '../helpers/toxiproxy.js';

export default function setup(): () => void {
  clearCells();
  return () => {
    const cells = readCells();
    if (cells.length === 0) return;
    const markdown = matrixMarkdown(cells, [
      `Toxiproxy ${TOXIPROXY_VERSION} (built from the Go module proxy) between the parts; every cell ran concurrently with the others of its file.`,
      'sends: SendMessage/SendStreamingMessage calls the agent received (distinct message ids in brackets when fewer); chunks: artifact parts against the undisturbed run.',
      'noticed: seconds from the fault to the first `status` that showed it (a retried activity with its last failure, or an agent that stopped answering).',
    ]);
    mkdirSync(dirname(MATRIX_FILE), { recursive: true });
    writeFileSync(MATRIX_FILE, markdown);
    console.log(`\n${markdown}\nWritten to ${MATRIX_FILE}`);
  };
}
