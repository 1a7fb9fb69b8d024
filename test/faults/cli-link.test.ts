/**
 * The CLI → Temporal link: `a2a-temporal watch` (the real CLI process) follows a delegation
 * through a Toxiproxy proxy of its own while the fault happens. The delegation waits for an
 * answer until `watch` has printed the agent's question (so the fault lands while the command
 * follows, however long the CLI takes to start); the test then answers it over a healthy
 * connection. `watch` must follow the delegation to its end; a one-shot `status` through a link
 * that never comes back must say so in one sentence and exit within its deadline.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { answerUpdate } from '../../contract/index.js';
import { compatRequest, registryOf, waitForQuestion } from '../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { startToxiproxy, type FaultyLink, type RunningToxiproxy } from '../helpers/toxiproxy.js';
import { waitFor } from '../helpers/wait.js';
import { writeCells, type CellRecord } from './fault-matrix.js';
import { FAULTS, type Fault } from './faults.js';
import { AGENT_PACE, cellRequest, settle, spawnCli, startDelegation, type CliProcess } from './support.js';

/** The most a command may take once the link is gone for good. */
const GIVE_UP_S = 30;

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('faults-cli');
const records: CellRecord[] = [];
let toxiproxy: RunningToxiproxy;
let agent: RunningAgent;
let stopWorker: () => Promise<void>;

vi.setConfig({ maxConcurrency: 50 });

/** The real CLI, talking to Temporal at `address`. */
const cli = (args: string[], address: string): CliProcess => spawnCli(args, address, temporal.server.namespace);

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE });
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
  });
  const running = worker.run();
  stopWorker = async () => {
    worker.shutdown();
    await running;
  };
});

afterAll(async () => {
  writeCells('cli-link', records);
  await stopWorker?.();
  await agent?.close();
  await toxiproxy?.stop();
});

/** `watch` through the faulty link, which must follow the delegation to its end. */
async function watchCell(fault: Fault, link: FaultyLink): Promise<CellRecord> {
  const client = await temporal.client();
  const workflowId = `${taskQueue}-${fault.id}`;
  const handle = await startDelegation(client, taskQueue, workflowId, compatRequest({ mode: 'stream' }));
  const question = await waitForQuestion(handle);
  if (fault.when === 'start') await fault.inflict(link);
  const watch = cli(['watch', workflowId], link.listen);
  await watch.spawned;
  await waitFor(() => watch.output().includes('asks (task'), {
    what: `watch ${workflowId} printing the question`,
    timeoutMs: 120_000,
  });
  const started = Date.now();
  const faultOver = fault.when === 'mid' ? fault.inflict(link) : Promise.resolve();
  await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: question.id }] });
  const code = await watch.exited;
  const seconds = (Date.now() - started) / 1000;
  await faultOver;
  await link.heal();
  await settle(handle);
  return judge(fault, 'watch', code, watch.output(), seconds, seconds);
}

/**
 * `status` through a link that is already gone for good, beside the same command over a healthy
 * connection: the time it may take to give up is counted beyond what the healthy one took (the
 * CLI's own start-up, which a loaded machine stretches).
 */
async function statusCell(fault: Fault, link: FaultyLink): Promise<CellRecord> {
  const client = await temporal.client();
  const workflowId = `${taskQueue}-status-${fault.id}`;
  const handle = await startDelegation(client, taskQueue, workflowId, cellRequest('compat', 'stream'));
  await fault.inflict(link);
  // Each command's time counts from its own spawn (it may wait for its turn to start).
  const timed = async (command: CliProcess) => {
    const [spawned, code] = await Promise.all([command.spawned, command.exited]);
    return { code, seconds: (Date.now() - spawned) / 1000, output: command.output() };
  };
  const [faulty, healthy] = await Promise.all([
    timed(cli(['status', workflowId], link.listen)),
    timed(cli(['status', workflowId], temporal.server.address)),
  ]);
  await link.heal();
  await settle(handle);
  return judge(fault, 'status', faulty.code, faulty.output, faulty.seconds, faulty.seconds - healthy.seconds);
}

function judge(
  fault: Fault,
  command: string,
  code: number | null,
  output: string,
  seconds: number,
  afterFault: number,
): CellRecord {
  const problems: string[] = [];
  const lines = output.trim().split('\n');
  const last = lines.at(-1) ?? '';
  let outcome: string;
  if (fault.ends) {
    outcome = code === 0 ? 'followed to the end' : `exit ${code}: ${last.slice(0, 120)}`;
    if (code !== 0) problems.push(`exit ${code}: ${output.slice(-600)}`);
    else if (!/completed|COMPLETED/.test(output)) problems.push(`no end printed: ${output.slice(-400)}`);
  } else {
    outcome = code === 0 ? 'exit 0' : `exit ${code}: one sentence`;
    if (code === 0) problems.push('exited 0 through a link that never came back');
    if (afterFault > GIVE_UP_S)
      problems.push(`gave up ${afterFault.toFixed(1)} s after the fault, more than ${GIVE_UP_S} s`);
    if (/\n\s+at /.test(output) || !/Temporal/.test(last))
      problems.push(`not one sentence about Temporal: ${output.slice(-600)}`);
  }
  return {
    link: 'CLI → Temporal',
    fault: fault.label,
    mode: command,
    expected: fault.ends ? 'followed to the end' : `exit 1: one sentence`,
    outcome,
    seconds,
    ok: problems.length === 0,
    ...(fault.ends ? {} : { statusSaid: last.slice(0, 160) }),
    ...(problems.length > 0 ? { problems } : {}),
  };
}

describe('CLI → Temporal', () => {
  for (const fault of FAULTS.filter((f) => f.ends)) {
    it.concurrent(`watch: ${fault.label}`, async () => {
      const link = await toxiproxy.link(`cli-watch-${fault.id}`, temporal.server.address);
      const record = await watchCell(fault, link);
      records.push(record);
      expect(record.problems ?? []).toEqual([]);
    });
  }
  for (const fault of FAULTS.filter((f) => !f.ends)) {
    it.concurrent(`status: ${fault.label}`, async () => {
      const link = await toxiproxy.link(`cli-status-${fault.id}`, temporal.server.address);
      const record = await statusCell(fault, link);
      records.push(record);
      expect(record.problems ?? []).toEqual([]);
    });
  }
});
