/**
 * The rig every hostile attack runs on, and the assertions every attack must pass: one worker
 * process (the real CLI `worker`, with the push receiver in it) whose agents file gives each
 * hostile agent a credential of its own, a well-behaved SDK agent to prove the worker still
 * serves, and the CLI's `status` / `watch` output to search.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { CancelledFailure, WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, TerminatedFailure } from '@temporalio/common';
import { Parser } from 'commonmark';
import { expect, vi } from 'vitest';
import type { AgentsFile } from '../../../activities/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { runCli } from '../../../client/main.js';
import type { StatusView } from '../../../client/status-view.js';
import { freePort } from '../../../platform/free-port.js';
import type { DelegateInput, DelegateResult } from '../../../contract/delegation-types.js';
import type { CredentialKind, ExpectedCode, HostileAttack } from '../../hostile/attacks.js';
import { startHostileAgent, type HostileAgent } from '../../hostile/hostile-agent.js';
import { compatRequest, waitForQuestion } from '../../helpers/delegations.js';
import { historyText } from '../../helpers/history-text.js';
import { uniqueTaskQueue, type useTemporal } from '../../helpers/temporal.js';
import { SECRET, spawnCli, type CliProcess } from '../push/support.js';

/** A control character a terminal could act on (newline and tab are fine). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export interface HostileRig {
  client: Client;
  temporal: ReturnType<typeof useTemporal>;
  taskQueue: string;
  worker: CliProcess;
  /** False once the worker process has exited. */
  alive(): boolean;
  agents: Map<string, HostileAgent>;
  /** Every credential value handed to the worker (none may show up anywhere). */
  secrets: string[];
  close(): Promise<void>;
}

/** The agents-file credential of each kind, and the environment that holds its value. */
function credentialFor(kind: CredentialKind, env: string): NonNullable<AgentsFile['agents'][string]['auth']> {
  if (kind === 'bearer') return { type: 'bearer', tokenEnv: env };
  return { type: 'apiKey', name: 'X-API-Key', location: kind === 'apiKeyQuery' ? 'query' : 'header', valueEnv: env };
}

/**
 * Starts one hostile agent per attack, a sample agent, and the worker process that knows them all
 * (with `env` added to its environment). An agent serving gRPC gets an entry for it: that binding,
 * its port allowed.
 */
export async function startRig(
  temporal: ReturnType<typeof useTemporal>,
  attacks: readonly HostileAttack[],
  workerEnv: Record<string, string> = {},
): Promise<HostileRig> {
  const client = await temporal.client();
  const agents = new Map<string, HostileAgent>();
  const compat: RunningAgent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 });
  const file: AgentsFile = { agents: { compat: { url: compat.baseUrl } } };
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [i, attack] of attacks.entries()) {
    const agent = await startHostileAgent({ attack });
    agents.set(attack.name, agent);
    const variable = `A2A_HOSTILE_SECRET_${i}`;
    const secret = `s-${randomUUID()}`; // short: a message that quotes 60 characters of a body shows it whole
    env[variable] = secret;
    secrets.push(secret);
    file.agents[attack.name] = {
      url: agent.baseUrl,
      auth: credentialFor(attack.credential ?? 'bearer', variable),
      ...(agent.grpc ? { bindings: ['GRPC'], allowOrigins: [agent.grpc.origin] } : {}),
    };
  }
  const agentsFile = join(mkdtempSync(join(tmpdir(), 'a2a-hostile-')), 'agents.json');
  writeFileSync(agentsFile, JSON.stringify(file));
  const taskQueue = uniqueTaskQueue('hostile');
  const port = await freePort();
  const worker = await spawnCli(
    ['worker', '--task-queue', taskQueue, '--agents-file', agentsFile, '--webhook-port', String(port)],
    { ...env, ...workerEnv, A2A_WEBHOOK_URL: `http://127.0.0.1:${port}`, A2A_WEBHOOK_SECRET: SECRET },
    'Webhook receiver:',
  );
  let exited = false;
  void worker.exited.then(() => (exited = true));
  return {
    client,
    temporal,
    taskQueue,
    worker,
    alive: () => !exited,
    agents,
    secrets,
    async close() {
      await worker.stop();
      await Promise.all([...agents.values()].map((a) => a.close()));
      await compat.close();
    },
  };
}

/** What one attack led to, and everything the test searches afterwards. */
export interface AttackOutcome {
  handle: WorkflowHandle;
  /** Where the worker's log stood when the attack started: what follows is this attack's. */
  logFrom: number;
  code: ExpectedCode | string;
  /** Failure message, when the delegation failed. */
  message?: string;
  elapsedMs: number;
  history: string;
  /** The CLI's output: `status` and `status --json` while a question waited (if any) and at the end, `watch`. */
  cli: Array<{ args: string[]; output: string }>;
  /** The UI's current details while a question waited (if any) and at the end. */
  details: string[];
  /** The question the delegation published, as the agent asked it. */
  question?: string;
}

/** Runs the `delegate` workflow against the attack's agent until it ends (cancelling it when the agent asks). */
export async function runAttack(rig: HostileRig, attack: HostileAttack): Promise<AttackOutcome> {
  const input: DelegateInput = {
    agent: attack.agentUrl ? attack.agentUrl(rig.agents.get(attack.name)!.baseUrl) : attack.name,
    label: attack.name,
    text: 'Check the dependencies of payment-service for the upgrade to 2.0.0.',
    mode: attack.mode ?? 'poll',
    tracking: { pushSafetyNetInterval: '1 hour', ...attack.tracking }, // push attacks must finish through a real delivery
  };
  const workflowId = `hostile-${attack.name}-${randomUUID().slice(0, 8)}`;
  const logFrom = rig.worker.output().length;
  const started = performance.now();
  const handle = await rig.client.workflow.start('delegate', { taskQueue: rig.taskQueue, workflowId, args: [input] });
  const cli: AttackOutcome['cli'] = [];
  const details: string[] = [];
  let question: string | undefined;
  if (attack.asks) {
    question = (await waitForQuestion(handle)).text;
    cli.push(...(await statusOutputs(rig, workflowId)));
    details.push(await currentDetails(handle));
    await handle.cancel();
  }
  const ended = await handle.result().then(
    (result: DelegateResult) => ({ code: 'COMPLETED' as const, result }),
    (err: unknown) => failureOf(err),
  );
  const elapsedMs = performance.now() - started;
  cli.push(...(await statusOutputs(rig, workflowId)));
  if (attack.watch) cli.push(await cliOutput(rig, ['watch', workflowId]));
  details.push(await currentDetails(handle));
  return {
    handle,
    logFrom,
    code: ended.code,
    message: 'message' in ended ? ended.message : undefined,
    elapsedMs,
    history: historyText(await handle.fetchHistory()),
    cli,
    details,
    question,
  };
}

function failureOf(err: unknown): { code: string; message: string } {
  const cause = err instanceof WorkflowFailedError ? err.cause : err;
  if (cause instanceof CancelledFailure) return { code: 'CANCELED', message: cause.message };
  if (cause instanceof TerminatedFailure) return { code: 'TERMINATED', message: cause.message };
  if (cause instanceof ApplicationFailure) return { code: cause.type ?? 'Error', message: cause.message };
  return { code: (cause as Error)?.name ?? 'unknown', message: String((cause as Error)?.message ?? cause) };
}

async function statusOutputs(rig: HostileRig, workflowId: string) {
  return [await cliOutput(rig, ['status', workflowId]), await cliOutput(rig, ['status', workflowId, '--json'])];
}

/**
 * Runs the CLI in this process (the same `runCli` the `a2a-temporal` binary calls; a process per
 * call would cost seconds of CPU each) and returns everything it printed, stdout and stderr.
 */
export async function cliOutput(
  rig: Pick<HostileRig, 'temporal'>,
  args: string[],
): Promise<{ args: string[]; output: string }> {
  const server = rig.temporal.server;
  let output = '';
  const capture = (...parts: unknown[]) => void (output += `${format(...parts)}\n`);
  const write = (chunk: unknown) => ((output += String(chunk)), true);
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(capture),
    vi.spyOn(console, 'error').mockImplementation(capture),
    vi.spyOn(process.stdout, 'write').mockImplementation(write),
    vi.spyOn(process.stderr, 'write').mockImplementation(write),
  ];
  try {
    const code = await runCli([...args, '--address', server.address, '--namespace', server.namespace]);
    expect(code, `a2a-temporal ${args.join(' ')}:\n${output}`).toBe(0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return { args, output };
}

/** The markdown the Temporal UI shows as the workflow's current details. */
export async function currentDetails(handle: WorkflowHandle): Promise<string> {
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  return metadata.currentDetails ?? '';
}

/** Headings our own details write; anything else would be an agent's. */
const OUR_HEADINGS = new Set(['The agent needs input', 'The agent needs authorization']);

/** Links, images, HTML and headings in `markdown` that the workflow did not write itself. */
export function foreignMarkup(markdown: string): string[] {
  const found: string[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const node = step.node;
    if (!step.entering) continue;
    if (['link', 'image', 'html_inline', 'html_block'].includes(node.type))
      found.push(`${node.type} ${node.destination ?? node.literal ?? ''}`);
    if (node.type === 'heading' && !OUR_HEADINGS.has(node.firstChild?.literal ?? ''))
      found.push(`heading ${node.firstChild?.literal ?? ''}`);
  }
  return found;
}

/** The secret in the forms it could leak in: whole, cut short (20 random characters), base64 (payloads). */
function leakForms(secret: string): string[] {
  return [secret.slice(0, 22), Buffer.from(secret).toString('base64')];
}

/**
 * The assertions every attack must pass: the typed outcome, in bounded time; the worker alive
 * and serving; no credential in history, worker logs or CLI output; no escape sequence in the
 * CLI output and no foreign markup in the UI details; no task left running at the agent.
 */
export async function expectContained(rig: HostileRig, attack: HostileAttack, outcome: AttackOutcome): Promise<void> {
  const agent = rig.agents.get(attack.name)!;
  expect(outcome.code, `${attack.name} ended with ${outcome.code}: ${outcome.message ?? ''}`).toBe(attack.expectedCode);
  expect(outcome.elapsedMs, 'time to the end').toBeLessThan(attack.maxSeconds * 1000);

  // Nothing secret anywhere a person or a log collector reads.
  const places = {
    history: outcome.history,
    'worker log': rig.worker.output().slice(outcome.logFrom),
    ...Object.fromEntries(outcome.cli.map((c) => [`a2a-temporal ${c.args.join(' ')}`, c.output])),
  };
  for (const [where, text] of Object.entries(places))
    for (const secret of rig.secrets.flatMap(leakForms))
      expect(text.includes(secret), `a credential in the ${where}`).toBe(false);

  // Terminal-safe CLI output; --json still exact JSON.
  for (const { args, output } of outcome.cli) {
    expect(output, `a2a-temporal ${args.join(' ')}`).not.toMatch(RAW_CONTROL);
    if (!args.includes('--json')) continue;
    const view = JSON.parse(output) as StatusView; // nothing but the JSON: it parses whole
    // The same value the workflow holds, escape sequences and all: only the printing is escaped.
    if (view.questions.length) expect(view.questions[0]?.text).toBe(outcome.question);
  }
  for (const details of outcome.details) expect(foreignMarkup(details), 'agent markup in the UI details').toEqual([]);

  // Nothing left running at the agent: what we started and could not finish was canceled.
  expect(
    agent.openTasks().map((t) => `${t.id} ${t.status.state}`),
    'tasks still open at the agent',
  ).toEqual([]);
  if (attack.requestsAtMost !== undefined)
    expect(agent.requests.length, 'requests the agent received').toBeLessThanOrEqual(attack.requestsAtMost);
  for (const [key, value] of Object.entries(attack.observations ?? {}))
    expect(agent.observations.get(key), `the agent's observation "${key}"`).toEqual(value);

  await expectResponsive(rig);
}

/** The worker process is alive and still completes a normal delegation promptly. */
export async function expectResponsive(rig: HostileRig): Promise<void> {
  expect(rig.alive(), 'the worker process is alive').toBe(true);
  const started = performance.now();
  const handle = await rig.client.workflow.start('delegate', {
    taskQueue: rig.taskQueue,
    workflowId: `hostile-ping-${randomUUID().slice(0, 8)}`,
    args: [compatRequest({ text: 'Check for Node.js 24', mode: 'poll' })],
  });
  expect(((await handle.result()) as DelegateResult).state).toBe('TASK_STATE_COMPLETED');
  expect(performance.now() - started, 'a normal delegation right after').toBeLessThan(15_000);
}
