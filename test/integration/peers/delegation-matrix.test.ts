/**
 * Every delegation scenario against every peer agent, over every binding it serves, in every mode
 * it offers: our own sample agent (`js`, @a2a-js/sdk) and the Python peer (official `a2a-sdk`),
 * both A2A 1.0 over JSON-RPC, HTTP+JSON and gRPC, and the Go peer (`a2a-go` 0.3.3, A2A 0.3). The
 * real `delegate` workflow runs on one worker per peer with our plugin, whose agents file names
 * the peer once per binding (`js-GRPC`: `"bindings": ["GRPC"]`, its gRPC port allowed); push goes
 * through our webhook receiver. The matrix (peer × binding × mode × scenario → ✓/✗ and seconds)
 * is printed at the end and written to test/artifacts/peer-matrix.md.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { createA2AClient, fetchAgentCard, type SupportedBinding } from '../../../a2a/index.js';
import { AgentRegistry } from '../../../activities/agent-registry.js';
import { ensurePeerToolchains } from '../../../platform/peer-toolchains.js';
import { packageRoot } from '../../../platform/paths.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { compatRequest, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { startPeer, type PeerName, type RunningPeer } from '../../peers/peers.js';
import { SECRET, startReceiver } from '../push/support.js';
import { Matrix } from './matrix.js';
import { SCENARIOS, type Cell, type Mode, type Scenario } from './scenarios.js';

const MATRIX_FILE = join(packageRoot, 'test', 'artifacts', 'peer-matrix.md');
/** A cell that has not finished by then is recorded as failed (before vitest's own timeout hits). */
const CELL_DEADLINE_MS = 60_000;

// All cells of one peer and binding run at once: each is its own workflow, and most of a cell is waiting.
vi.setConfig({ maxConcurrency: SCENARIOS.length * 3 });

const temporal = useTemporal();
const matrix = new Matrix(SCENARIOS.map((s) => s.name));

// Set up (or find in .cache/peers) the peers' toolchains and start the peers before the suites are
// declared: which modes a peer offers comes from its agent card.
const missing = new Map(
  (await ensurePeerToolchains()).flatMap((t) => (t.ready ? [] : [[t.peer as PeerName, t.reason] as const])),
);
const peers = new Map<PeerName, RunningPeer>();
for (const name of ['js', 'python', 'go'] as const) {
  if (!missing.has(name)) peers.set(name, await startPeer(name, { workDelayMs: 0, chunkDelayMs: 10 }));
}

let receiver: RunningWebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver(await temporal.client());
});
afterAll(async () => {
  await Promise.all([...peers.values()].map((peer) => peer.close()));
  await receiver?.close();
  console.log(matrix.markdown());
  matrix.write(MATRIX_FILE);
});

function modesOf(peer: RunningPeer): Mode[] {
  return [
    ...(peer.capabilities.streaming ? (['stream'] as const) : []),
    'poll' as const,
    ...(peer.capabilities.pushNotifications ? (['push'] as const) : []),
  ];
}

/** The bindings of the peer we speak, once each, in the card's order. */
function bindingsOf(peer: RunningPeer): SupportedBinding[] {
  return [...new Set(peer.spoken.map((s) => s.binding))];
}

/** The peer's agents-file entries: one per binding, `<peer>-<binding>`, that binding only, its origin allowed. */
function registryFor(name: string, peer: RunningPeer): AgentRegistry {
  const agents = Object.fromEntries(
    bindingsOf(peer).map((binding) => [
      agentName(name, binding),
      {
        url: peer.baseUrl,
        bindings: [binding],
        allowOrigins: peer.spoken.filter((s) => s.binding === binding).map((s) => s.origin),
      },
    ]),
  );
  return new AgentRegistry({ agents });
}

function agentName(peer: string, binding: SupportedBinding): string {
  return `${peer}-${binding}`;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

for (const name of ['js', 'python', 'go'] as const) {
  const peer = peers.get(name);
  const reason = missing.get(name);
  matrix.addPeer(
    peer
      ? {
          name,
          description: `${peer.title}: ${peer.sdk}, A2A ${peer.protocolVersion}, ${peer.bindings.join(' + ')}`,
          bindings: bindingsOf(peer),
          modes: modesOf(peer),
        }
      : { name, description: '', bindings: [], modes: [], skipped: reason },
  );

  describe.runIf(peer)(peer ? `delegating to the ${name} peer` : `the ${name} peer does not run: ${reason}`, () => {
    let taskQueue: string;
    let worker: Worker;
    let running: Promise<void>;
    let remote: ReturnType<typeof createA2AClient>;

    beforeAll(async () => {
      taskQueue = uniqueTaskQueue(`peers-${name}`);
      worker = await temporal.worker({
        taskQueue,
        plugins: [
          a2aTemporalPlugin({
            registry: registryFor(name, peer!),
            webhook: { publicUrl: receiver.url, secret: SECRET },
          }),
        ],
      });
      running = worker.run();
      remote = createA2AClient({ card: (await fetchAgentCard(peer!.baseUrl)).card });
    });
    afterAll(async () => {
      worker?.shutdown();
      await running;
    });

    async function runCell(binding: SupportedBinding, mode: Mode, scenario: Scenario): Promise<void> {
      const client = await temporal.client();
      const handles: WorkflowHandle[] = [];
      const cell: Cell = {
        peer: peer!,
        agent: agentName(name, binding),
        mode,
        async start(input = {}) {
          const request = compatRequest({ agent: agentName(name, binding), label: name, mode, ...input });
          const id = `${taskQueue}-${binding}-${mode}-${scenario.name.replace(/\W+/g, '-')}-${handles.length + 1}`;
          const handle = await startDelegate(client, taskQueue, request, id);
          handles.push(handle);
          return handle;
        },
        remoteTask: (taskId) => remote.getTask({ id: taskId }),
      };
      const started = performance.now();
      const record = (error?: unknown) =>
        matrix.record({
          peer: name,
          binding,
          mode,
          scenario: scenario.name,
          ok: error === undefined,
          seconds: (performance.now() - started) / 1000,
          error: error === undefined ? undefined : String((error as Error).message ?? error).split('\n')[0],
        });
      try {
        await withDeadline(scenario.run(cell), CELL_DEADLINE_MS);
        record();
      } catch (err) {
        record(err);
        throw err;
      } finally {
        // A failed cell may leave its delegation waiting; nothing of it may outlive the cell.
        await Promise.all(handles.map((h) => h.terminate('the matrix cell ended').catch(() => undefined)));
      }
    }

    // A peer that does not run still lists its cells (as skipped), under the sentence that says why.
    for (const binding of peer ? bindingsOf(peer) : (['HTTP+JSON'] as const)) {
      describe(`over ${binding}`, () => {
        for (const mode of peer ? modesOf(peer) : (['stream', 'poll', 'push'] as const)) {
          for (const scenario of SCENARIOS) {
            it.concurrent(`${scenario.name} in ${mode} mode`, () => runCell(binding, mode, scenario));
          }
        }
      });
    }
  });
}
