/**
 * The rig every hostile attack runs on, and the assertions every attack must pass: one worker
 * process (the real CLI `worker`, with the push receiver in it, exporting its spans to an OTLP
 * receiver of the test) whose agents file gives each hostile agent a credential of its own, a
 * well-behaved SDK agent whose delegations run beside every attack and after it, and the CLI's
 * `status` / `watch` output to search.
 */
import { readFileSync, writeFileSync as writeProcFile } from 'node:fs';
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
import { compatRequest, currentDetails, waitForQuestion } from '../../helpers/delegations.js';
import { historyText } from '../../helpers/history-text.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { uniqueTaskQueue, type useTemporal } from '../../helpers/temporal.js';
import { SECRET, spawnCli, type CliProcess } from '../push/support.js';

/** A control character a terminal could act on (newline and tab are fine). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** A bidi control or zero-width character left raw (it makes text read as something else). */
const RAW_HIDDEN = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

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
  /** Where the worker exports its spans. */
  spans: OtlpReceiver;
  close(): Promise<void>;
}

/** The agents-file credential of each kind, and the environment that holds its value. */
function credentialFor(
  kind: CredentialKind,
  env: string,
  agent: HostileAgent,
): NonNullable<AgentsFile['agents'][string]['auth']> {
  if (kind === 'bearer') return { type: 'bearer', tokenEnv: env };
  if (kind === 'oauth2')
    return { type: 'oauth2', clientId: 'hostile-client', clientSecretEnv: env, tokenUrl: `${agent.baseUrl}/token` };
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
  const spans = await startOtlpReceiver();
  const file: AgentsFile = { agents: { compat: { url: compat.baseUrl } } };
  const env: Record<string, string> = { OTEL_EXPORTER_OTLP_ENDPOINT: spans.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  const secrets: string[] = [];
  for (const [i, attack] of attacks.entries()) {
    const agent = await startHostileAgent({ attack });
    agents.set(attack.name, agent);
    const variable = `A2A_HOSTILE_SECRET_${i}`;
    // Short (a message that quotes 60 characters of a body shows it whole), and with characters
    // that percent-, form- and JSON-encoding each change, so every echoed form differs.
    const secret = `s-${randomUUID()}/+=&%"~`;
    env[variable] = secret;
    secrets.push(secret);
    Object.assign(env, attack.env);
    if (attack.secretInInput) secrets.push(attack.secretInInput);
    file.agents[attack.name] = {
      url: agent.baseUrl,
      auth: credentialFor(attack.credential ?? 'bearer', variable, agent),
      ...(agent.grpc ? { bindings: ['GRPC'], allowOrigins: [agent.grpc.origin] } : {}),
      ...attack.entry,
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
    spans,
    async close() {
      await worker.stop();
      await Promise.all([...agents.values()].map((a) => a.close()));
      await compat.close();
      await spans.close();
    },
  };
}

/** What one attack led to, and everything the test searches afterwards. */
export interface AttackOutcome {
  handle: WorkflowHandle;
  /** Where the worker's log stood when the attack started: what follows is this attack's. */
  logFrom: number;
  /** How many span exports had arrived when the attack started (later ones are checked by the last test). */
  spansFrom: number;
  code: ExpectedCode | string;
  /** Failure message, when the delegation failed. */
  message?: string;
  elapsedMs: number;
  history: string;
  /** The CLI's output: `status` and `status --json` while a question waited (if any) and at the end, `watch` (text and markdown). */
  cli: Array<{ args: string[]; output: string }>;
  /** The UI's current details while a question waited (if any) and at the end. */
  details: string[];
  /** The question the delegation published, as the agent asked it. */
  question?: string;
  /** The ordinary delegation that ran beside the attack: how it ended. */
  beside: string;
  /** The victim's delegation (see HostileAttack.victim): how it ended, and its task. */
  victim?: { code: string; taskId?: string };
  /** The worker's RSS when the attack started and its peak (VmHWM) until it ended, in MB. */
  rssMb: { idle: number; peak: number };
  /** `a2a-temporal cancel` (cancelByCli): how long it took. */
  cancelMs?: number;
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
  const spansFrom = rig.spans.rawBodies.length;
  const agent = rig.agents.get(attack.name)!;
  const victim = attack.victim ? await startVictim(rig, attack, agent) : undefined;
  const idle = memoryMb(rig.worker.pid, 'VmRSS');
  writeProcFile(`/proc/${rig.worker.pid}/clear_refs`, '5'); // VmHWM from here on
  const started = performance.now();
  const handle = await rig.client.workflow.start('delegate', { taskQueue: rig.taskQueue, workflowId, args: [input] });
  const beside = ordinaryDelegation(rig, `hostile-beside-${attack.name}`);
  const cli: AttackOutcome['cli'] = [];
  const details: string[] = [];
  let question: string | undefined;
  let cancelMs: number | undefined;
  if (attack.asks) {
    question = (await waitForQuestion(handle)).text;
    cli.push(...(await statusOutputs(rig, workflowId)));
    details.push(await currentDetails(handle));
    if (attack.cancelByCli) {
      const asked = performance.now();
      cli.push(await cliOutput(rig, ['cancel', workflowId, '--wait', `${attack.cancelByCli.waitSeconds}s`]));
      cancelMs = performance.now() - asked;
    } else await handle.cancel();
  }
  const ended = await handle.result().then(
    (result: DelegateResult) => ({ code: 'COMPLETED' as const, result }),
    (err: unknown) => failureOf(err),
  );
  const elapsedMs = performance.now() - started;
  const peak = memoryMb(rig.worker.pid, 'VmHWM');
  const history = await handle.fetchHistory();
  if (attack.secretInInput) delete history.events?.[0]?.workflowExecutionStartedEventAttributes?.input; // the caller's own
  cli.push(...(await statusOutputs(rig, workflowId)));
  // Rendered (a word of markdown may lose its `*` or `_`) and as sent, where a leaked credential
  // shows in the very form it would have.
  if (attack.watch)
    cli.push(
      await cliOutput(rig, ['watch', workflowId]),
      await cliOutput(rig, ['watch', workflowId, '--format', 'markdown']),
    );
  details.push(await currentDetails(handle));
  return {
    handle,
    logFrom,
    spansFrom,
    code: ended.code,
    message: 'message' in ended ? ended.message : undefined,
    elapsedMs,
    history: historyText(history),
    cli,
    details,
    question,
    beside: await beside,
    ...(victim ? { victim: await victim.ended } : {}),
    rssMb: { idle, peak },
    ...(cancelMs !== undefined ? { cancelMs } : {}),
  };
}

/** A process's memory figure from /proc/<pid>/status (`VmRSS`, `VmHWM`), in MB. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** An ordinary delegation to the sample agent on the same worker, run to its end: `COMPLETED` or how it failed. */
async function ordinaryDelegation(rig: HostileRig, prefix: string): Promise<string> {
  const handle = await rig.client.workflow.start('delegate', {
    taskQueue: rig.taskQueue,
    workflowId: `${prefix}-${randomUUID().slice(0, 8)}`,
    args: [compatRequest({ text: 'Check for Node.js 24', mode: 'poll' })],
  });
  return handle.result().then(
    (result: DelegateResult) => (result.state === 'TASK_STATE_COMPLETED' ? 'COMPLETED' : String(result.state)),
    (err: unknown) => failureOf(err).code,
  );
}

/**
 * The victim: a delegation to the attack's agent, started before the attacked one, which goes on
 * once the agent holds its task. Resolves when it ends, with the task it followed.
 */
async function startVictim(
  rig: HostileRig,
  attack: HostileAttack,
  agent: HostileAgent,
): Promise<{ ended: Promise<{ code: string; taskId?: string }> }> {
  const handle = await rig.client.workflow.start('delegate', {
    taskQueue: rig.taskQueue,
    workflowId: `hostile-victim-${attack.name}-${randomUUID().slice(0, 8)}`,
    args: [{ agent: attack.name, label: `${attack.name}-victim`, text: 'Check payment-service.', mode: 'poll' }],
  });
  const taskId = await waitFor(() => [...agent.tasks.keys()][0], { what: "the victim's task at the agent" });
  const ended = handle.result().then(
    () => ({ code: 'COMPLETED', taskId }),
    (err: unknown) => ({ code: failureOf(err).code, taskId }),
  );
  return { ended }; // wrapped: awaiting the start must not wait for the end
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

/** Headings our own details write; anything else would be an agent's. */
const OUR_HEADINGS = new Set(['The agent needs input', 'The agent needs authorization', 'Artifacts']);
/** A stored file's link, as the workflow writes it for a reference it wrote (contract/artifact-ref.ts fileLink). */
const OUR_FILE_LINK = /^blobs\/sha256:[0-9a-f]{64}\?name=[\w.~%-]*&type=[\w.~%-]*$/;

/** Links, images, HTML and headings in `markdown` that the workflow did not write itself. */
export function foreignMarkup(markdown: string): string[] {
  const found: string[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const node = step.node;
    if (!step.entering) continue;
    if (node.type === 'link' && OUR_FILE_LINK.test(node.destination ?? '')) continue;
    if (['link', 'image', 'html_inline', 'html_block'].includes(node.type))
      found.push(`${node.type} ${node.destination ?? node.literal ?? ''}`);
    if (node.type === 'heading' && !OUR_HEADINGS.has(node.firstChild?.literal ?? ''))
      found.push(`heading ${node.firstChild?.literal ?? ''}`);
  }
  return found;
}

/**
 * The secret in every form it could leak in: raw (cut short: 20 random characters), percent-,
 * form- and JSON-encoded, and each of those inside base64 wherever it starts (base64 of the
 * secret from its 1st, 2nd and 3rd byte, without the last group, is in the base64 of any text
 * that holds it).
 */
export function leakForms(secret: string): string[] {
  const textual = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ];
  const forms = new Set<string>();
  for (const text of textual) {
    forms.add(text.slice(0, 22));
    for (let skip = 0; skip < 3; skip++) {
      const encoded = Buffer.from(text.slice(skip)).toString('base64');
      forms.add(encoded.slice(0, -4));
      forms.add(encoded.slice(0, -4).replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms];
}

/** The credentials the agent received from the worker (Authorization headers, bearer and Basic): none may come back. */
function receivedCredentials(agent: HostileAgent): string[] {
  const values = agent.requests.flatMap((r) => [r.headers.authorization, r.headers['x-api-key']]);
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 8))];
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
  expect(outcome.beside, 'the ordinary delegation that ran beside it').toBe('COMPLETED');
  if (attack.maxRssGrowthMb !== undefined)
    expect(outcome.rssMb.peak - outcome.rssMb.idle, 'growth of the worker RSS (MB)').toBeLessThan(
      attack.maxRssGrowthMb,
    );
  if (attack.victim) {
    expect(outcome.victim?.code, 'the victim: a delegation to the same agent that was handed over').toBe('COMPLETED');
    expect(agent.canceled, "the victim's task was never canceled").not.toContain(outcome.victim?.taskId);
  }
  if (attack.cancelByCli) {
    expect(outcome.cancelMs, 'a2a-temporal cancel returns within its bound').toBeLessThan(
      (attack.cancelByCli.waitSeconds + 5) * 1000,
    );
    const cancel = outcome.cli.find((c) => c.args[0] === 'cancel');
    expect(cancel?.output ?? '').toMatch(/cancel requested; the agent has not confirmed yet|: cancelled\./);
  }

  // Nothing secret anywhere a person or a log collector reads: what the worker holds, and what it sent the agent.
  const places = {
    history: outcome.history,
    'worker log': rig.worker.output().slice(outcome.logFrom),
    'exported spans': rig.spans.rawBodies
      .slice(outcome.spansFrom)
      .map((b) => b.toString('latin1'))
      .join('\n'),
    ...Object.fromEntries(outcome.cli.map((c) => [`a2a-temporal ${c.args.join(' ')}`, c.output])),
  };
  const forms = [...rig.secrets, ...receivedCredentials(agent)].flatMap(leakForms);
  for (const [where, text] of Object.entries(places))
    for (const secret of forms) expect(text.includes(secret), `a credential in the ${where}`).toBe(false);

  // Terminal-safe CLI output: no control or hidden character, no line forged; --json still exact JSON.
  for (const { args, output } of outcome.cli) {
    expect(output, `a2a-temporal ${args.join(' ')}`).not.toMatch(RAW_CONTROL);
    expect(output, `a2a-temporal ${args.join(' ')}`).not.toMatch(RAW_HIDDEN);
    if (args[0] === 'status' && !args.includes('--json'))
      expect(
        output.split('\n').filter((line) => line.startsWith('Status:')),
        'lines starting with Status:',
      ).toHaveLength(1);
    if (!args.includes('--json')) continue;
    const view = JSON.parse(output) as StatusView; // nothing but the JSON: it parses whole
    // The same value the workflow holds, escape sequences and all: only the printing is escaped.
    if (view.questions.length) expect(view.questions[0]?.text).toBe(outcome.question);
  }
  for (const details of outcome.details) {
    expect(foreignMarkup(details), 'agent markup in the UI details').toEqual([]);
    expect(details, 'the UI details').not.toMatch(RAW_HIDDEN);
  }

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
