import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { compatRequest, registryOf, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 });
});
afterAll(() => agent?.close());

describe('delegation history', () => {
  it('has the same number of events for a remote task of 1 s and one of 20 s (poll mode)', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('history');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
    });
    const lengths = await worker.runUntil(
      Promise.all(
        [1_000, 20_000].map(async (workDelayMs) => {
          const handle = await startDelegate(
            client,
            taskQueue,
            compatRequest({ mode: 'poll', text: 'Check for Node.js 24', metadata: { workDelayMs } }),
            `${taskQueue}-${workDelayMs}`,
          );
          await handle.result();
          return (await handle.fetchHistory()).events?.length;
        }),
      ),
    );
    expect(lengths[0]).toBeGreaterThan(0);
    expect(lengths[1]).toBe(lengths[0]);
  });
});
