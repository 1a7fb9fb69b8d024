/**
 * `npm run bench:bindings [-- --count 30]`: what each binding costs. The same sample agent serves
 * JSON-RPC, HTTP+JSON and gRPC; one worker's agents file names it once per binding. Per round, in
 * an order that rotates, one delegation (`delegate`, mode stream, no question) per binding, and
 * the same request through our A2A client alone (SendStreamingMessage to the end), so the
 * binding's share of a delegation is visible. Prints a markdown table (p50, p95, min of `count`
 * samples after 3 warm-up rounds) and the machine's load average before and after.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { createA2AClient, fetchAgentCard, selectInterface, type SupportedBinding } from '../a2a/index.js';
import { grpcInterfaceUrl } from '../a2a/grpc/target.js';
import { AgentRegistry } from '../activities/agent-registry.js';
import { startDependencyCompatAgent } from '../agents/index.js';
import type { DelegateInput, DelegateResult } from '../contract/index.js';
import { startDevServer } from '../platform/dev-server.js';
import { ensureTemporalCli } from '../platform/temporal-cli.js';
import { writeWorkflowBundle } from '../platform/workflow-bundle.js';
import { a2aTemporalPlugin } from '../worker/plugin.js';
import { summarize } from './stats.js';

const BINDINGS: SupportedBinding[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
const WARMUP = 3;
const MANIFEST = { name: 'payment-service', dependencies: { express: '^4.18.2', lodash: '^4.17.21' } };
const log = (line: string) => console.error(`[bench:bindings ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '30' } } });
  const count = Number(values.count);
  Runtime.install({
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(m) },
  });
  const load = {
    before: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    after: '',
  };
  const cli = await ensureTemporalCli(log);
  const [server, bundlePath, agent] = await Promise.all([
    startDevServer({ port: 0, uiPort: false, cliPath: cli.path }),
    writeWorkflowBundle('workflows/index.ts', 'bench-bindings'),
    startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0, bindings: BINDINGS }),
  ]);
  const { card } = await fetchAgentCard(agent.baseUrl);
  const grpcOrigin = grpcInterfaceUrl(agent.grpcAddress!, agent.cardUrl);
  const registry = new AgentRegistry({
    agents: Object.fromEntries(
      BINDINGS.map((b) => [b, { url: agent.baseUrl, bindings: [b], allowOrigins: b === 'GRPC' ? [grpcOrigin] : [] }]),
    ),
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace });
  const native = await NativeConnection.connect({ address: server.address });
  const taskQueue = `bench-bindings-${process.pid}`;
  const worker = await Worker.create({
    connection: native,
    namespace: server.namespace,
    taskQueue,
    workflowBundle: { codePath: bundlePath },
    plugins: [a2aTemporalPlugin({ registry })],
  });
  const running = worker.run();
  const direct = Object.fromEntries(
    BINDINGS.map((b) => [
      b,
      createA2AClient({ card, endpoint: selectInterface(card, { bindings: [b] }) }, { timeoutMs: 10_000 }),
    ]),
  );
  const input = (binding: SupportedBinding): DelegateInput => ({
    agent: binding,
    mode: 'stream',
    text: 'Check the dependencies of payment-service for Node.js 24.',
    parts: [{ data: MANIFEST, mediaType: 'application/json' }],
  });
  const kinds = {
    delegation: async (binding: SupportedBinding, n: number) => {
      const handle = await client.workflow.start('delegate', {
        taskQueue,
        workflowId: `${taskQueue}-${binding}-${n}`,
        args: [input(binding)],
      });
      const result = (await handle.result()) as DelegateResult;
      if (result.state !== 'TASK_STATE_COMPLETED') throw new Error(`${binding}: ended in ${result.state}`);
    },
    client: async (binding: SupportedBinding, n: number) => {
      const message = {
        messageId: `bench-${binding}-${n}`,
        role: 'ROLE_USER' as const,
        parts: [{ text: input(binding).text! }, ...input(binding).parts!],
      };
      let last = '';
      for await (const event of direct[binding]!.sendStreamingMessage({ message }))
        if ('statusUpdate' in event) last = event.statusUpdate.status.state;
      if (last !== 'TASK_STATE_COMPLETED') throw new Error(`${binding}: the stream ended in ${last}`);
    },
  };
  const samples = Object.fromEntries(
    Object.keys(kinds).map((k) => [k, Object.fromEntries(BINDINGS.map((b) => [b, [] as number[]]))]),
  ) as Record<keyof typeof kinds, Record<SupportedBinding, number[]>>;
  try {
    for (let round = 0; round < WARMUP + count; round++) {
      const order = BINDINGS.map((_, i) => BINDINGS[(i + round) % BINDINGS.length]!);
      for (const [kind, run] of Object.entries(kinds) as Array<
        [keyof typeof kinds, (b: SupportedBinding, n: number) => Promise<void>]
      >) {
        for (const binding of order) {
          const started = performance.now();
          await run(binding, round);
          if (round >= WARMUP) samples[kind][binding].push(performance.now() - started);
        }
      }
      if ((round + 1) % 10 === 0) log(`round ${round + 1}/${WARMUP + count}`);
    }
  } finally {
    load.after = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    worker.shutdown();
    await running;
    await native.close();
    await connection.close();
    await agent.close();
    await server.stop();
  }
  const rows = BINDINGS.map((b) => {
    const d = summarize(samples.delegation[b]);
    const c = summarize(samples.client[b]);
    return `| ${b} | ${d.p50} | ${d.p95} | ${d.min} | ${c.p50} | ${c.p95} | ${c.min} |`;
  });
  console.log(
    [
      `# Latency per binding (ms; ${count} samples each after ${WARMUP} warm-up rounds, interleaved, one run)`,
      '',
      '| binding | delegation p50 | p95 | min | client only p50 | p95 | min |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `Load average (1, 5, 15 min): ${load.before} before, ${load.after} after.`,
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
