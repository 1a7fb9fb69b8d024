import { CancelledFailure, Context, log } from '@temporalio/activity';
import { A2AError, type A2AClient, type Message, type Task } from '../a2a/index.js';
import type { AgentRef, AgentTarget, ResolvedAgent, StatusKey } from '../contract/delegation-types.js';
import { pushUnavailable } from '../contract/push-availability.js';
import { clientFor, taskViewOptions, type ActivityDeps } from './deps.js';
import { withoutReservedMetadata } from './artifact-spool.js';
import { asActivity } from './failures.js';
import { whileHeartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { ENDED_PHASES, type TrackPhase } from '../contract/track-phase.js';
import { phaseOf, TaskView, type TrackProgress } from './task-outcome.js';
import { statusKeyOf } from '../contract/answered-status.js';
import { messageText, withoutHistory } from './task-view.js';
import type { GetTaskOutcome } from './get-task.js';
import { followUpPush, type PushFollowUp } from './push-follow-up.js';
import { withPushIo } from './push-local-state.js';
import { resolveCard } from './resolve-agent.js';

export interface SendMessageInput {
  /** By name only in a push delegation's first send: the send resolves it (see `resolved` in its outcome). */
  agent: AgentTarget;
  /** The complete message, ids included: they come from the workflow, so every retry sends the same ones. */
  message: Message;
  acceptedOutputModes?: string[];
  /** The question the message answers: the task showing it again has not decided anything new. */
  handled?: StatusKey;
  /** Push mode: register the task's push config and read the task once, right after the send (push-follow-up.ts). */
  push?: PushFollowUp;
}

export type SendOutcome =
  | {
      kind: 'task';
      task: Task;
      /** true when a retry found the task the first attempt created */
      adopted: boolean;
      /** Set when the task returned has already decided (terminal, or a new question): nothing to follow. */
      decided?: { phase: TrackPhase; status: StatusKey; statusText: string };
      /** Push mode: the id of the config registered for the task (never the credential). */
      pushConfigRegistered?: string;
      /** Push mode: the task as read after the send (and the registration); `task` then only names it (id, context, state). */
      read?: Omit<GetTaskOutcome, 'pushConfigRegistered'>;
    }
  | { kind: 'message'; message: Message };

/**
 * The details of a send cancelled once the agent had named its task: the workflow cancels that
 * task, and deletes the push config the send may have registered for it (`pushConfigId`).
 */
export type SendProgress = TrackProgress & { pushConfigId?: string };

/** What the activity returns: the send's outcome, and the agent when it was given its name only. */
export type SendMessageOutcome = SendOutcome & { resolved?: ResolvedAgent };

/** The send's input once the agent is resolved. */
type Resolved = SendMessageInput & { agent: AgentRef };

/** How far back a retry looks for our message in a task's history. */
const LOOKBACK = 50;

/**
 * `SendMessage` with `returnImmediately: true`, heartbeating while the agent takes its time to
 * acknowledge, then push mode's follow-up when asked (`push`). A retry first looks for the task
 * the previous attempt may have created (our messageId in the task's or the context's history)
 * and adopts it instead of sending the message a second time. Given the agent by name only, it
 * first resolves it from its card (what the `resolveAgent` local activity does, without its own
 * workflow activation) and, in push mode, fails `A2A_PUSH_UNAVAILABLE` before anything is sent
 * when the agent or the worker cannot push.
 *
 * A cancellation never aborts the send itself (bounded by its request timeout): the workflow must
 * learn the task id of what it sent, to cancel it. It takes effect once the agent has named the
 * task (the failure's details, {@link SendProgress}, name it and the push config the send may
 * have registered), or during a retry's look for an earlier send (the workflow then looks the
 * task up by message id).
 */
export function sendMessage(deps: ActivityDeps, input: SendMessageInput): Promise<SendMessageOutcome> {
  const { push } = input;
  if (!push) return resolveAndSend(deps, input);
  const [configId, taskId] =
    'register' in push ? [push.register.configId, undefined] : [push.registered.configId, push.registered.taskId];
  return withPushIo(
    configId,
    () => resolveAndSend(deps, input),
    // The config is for the task the send created, or for the one it names when it answers there.
    (sent) => sent.kind === 'task' && (taskId === undefined || sent.task.id === taskId) && endsTask(sent),
  );
}

function endsTask(sent: Extract<SendOutcome, { kind: 'task' }>): boolean {
  const phase = sent.read?.phase ?? sent.decided?.phase;
  return phase !== undefined && ENDED_PHASES.has(phase);
}

async function resolveAndSend(deps: ActivityDeps, input: SendMessageInput): Promise<SendMessageOutcome> {
  const { endpoint } = input.agent;
  const resolved = endpoint ? undefined : await resolveToSend(deps, input);
  const agent = { name: input.agent.name, endpoint: endpoint ?? resolved!.endpoint };
  const sent = await send(deps, { ...input, agent });
  if (sent.kind === 'task' && Context.current().cancellationSignal.aborted) {
    throw new CancelledFailure('the activity was cancelled', [sentProgress(sent.task)]);
  }
  const { push } = input;
  const outcome = push && sent.kind === 'task' ? await followUpPush(deps, { ...input, agent, push }, sent) : sent;
  return resolved ? { ...outcome, resolved } : outcome;
}

/** The agent of a first send, resolved from its card; a card the agent does not serve is retried like a send it does not answer. */
function resolveToSend(deps: ActivityDeps, input: SendMessageInput): Promise<ResolvedAgent> {
  const { name } = input.agent;
  const context = Context.current();
  return asActivity(name, () =>
    whileHeartbeating(
      async () => {
        const resolved = await resolveCard(deps, name, context.cancellationSignal);
        const unavailable = input.push ? pushUnavailable(resolved, name) : undefined;
        if (unavailable) throw unavailable;
        return resolved;
      },
      // An earlier attempt's `sentAt` is heartbeated on: an attempt that fails here must not hide
      // from the next one that an earlier send may still create its task.
      () => context.info.heartbeatDetails,
    ),
  );
}

async function send(deps: ActivityDeps, input: Resolved): Promise<SendOutcome> {
  const context = Context.current();
  // When an earlier attempt's send left (heartbeat details): it may still create its task.
  let sentAt = sentAtOf(context.info.heartbeatDetails);
  return asActivity(input.agent.name, () =>
    whileHeartbeating(
      async () => {
        const client = await clientFor(deps, input.agent);
        const signal = context.cancellationSignal;
        if (context.info.attempt > 1) {
          const existing = await awaitEarlierSend(client, input.message, sentAt, deps.requestTimeoutMs, signal);
          if (existing) {
            const view = checkSentTask(deps, input, existing);
            log.info('adopted the task created by an earlier attempt', {
              taskId: existing.id,
              messageId: input.message.messageId,
            });
            return taskOutcome(deps, input, view, existing, true);
          }
        }
        sentAt = Date.now();
        const response = await client.sendMessage(
          {
            message: input.message,
            configuration: {
              returnImmediately: true,
              historyLength: 0,
              acceptedOutputModes: input.acceptedOutputModes,
            },
          },
          // Not the cancellation signal: a cancelled send still names its task (see sendMessage).
          {},
        );
        if ('task' in response) {
          return taskOutcome(deps, input, checkSentTask(deps, input, response.task), response.task, false);
        }
        const reply = { kind: 'message' as const, message: response.message };
        return withinPayloadLimit(reply, input.agent.name, 'its direct reply', deps.offloadsPayloads);
      },
      () => (sentAt === undefined ? undefined : { sentAt }),
    ),
  );
}

/** What a cancelled send tells the workflow about the task it created or answered. */
export function sentProgress(task: Pick<Task, 'id' | 'status'>, pushConfigId?: string): SendProgress {
  return {
    taskId: task.id,
    state: task.status.state,
    events: 0,
    artifacts: [],
    ...(pushConfigId ? { pushConfigId } : {}),
  };
}

/** `sentAt` (epoch ms) of an earlier attempt's heartbeat details, if it sent. */
export function sentAtOf(details: unknown): number | undefined {
  const sentAt = (details as { sentAt?: unknown } | undefined)?.sentAt;
  return typeof sentAt === 'number' ? sentAt : undefined;
}

/** How often a retry looks again for the task an earlier send may still create. */
const LOOK_AGAIN_MS = 1_000;

/**
 * The task an earlier attempt's send created, waiting for it when that send may still create it:
 * a send that left at `sentAt` and got no answer (its worker died) can be acknowledged until its
 * own request timeout (`windowMs`) has passed, so the retry looks again (by message id) until
 * then before it sends a second time. Without `sentAt` (no earlier send) or a way to look (an
 * agent without ListTasks), it looks once.
 */
export async function awaitEarlierSend(
  client: A2AClient,
  message: Message,
  sentAt: number | undefined,
  windowMs: number,
  signal: AbortSignal,
): Promise<Task | undefined> {
  for (;;) {
    const found = await lookUpSentTask(client, message, signal);
    if (found !== undefined) return found ?? undefined;
    const left = sentAt === undefined ? 0 : sentAt + windowMs - Date.now();
    if (left <= 0) return undefined;
    await Context.current().sleep(Math.min(left, LOOK_AGAIN_MS));
  }
}

/**
 * The task the agent returned for our message is this delegation's (its context, the task we
 * answered, no other delegation's on this worker) and within the byte budget.
 * @throws InvalidResponseError, ResponseTooLargeError
 */
function checkSentTask(deps: ActivityDeps, input: Resolved, task: Task): TaskView {
  const { taskId, contextId } = input.message;
  const expect = { ...(taskId ? { taskId } : {}), ...(contextId ? { contextId } : {}) };
  const view = new TaskView('', undefined, taskViewOptions(deps, input.agent, { expect }));
  view.snapshot(task);
  return view;
}

/** The task as the workflow gets it: a decided task's files in the blob store (when the worker has one). */
async function taskOutcome(
  deps: ActivityDeps,
  input: Resolved,
  view: TaskView,
  task: Task,
  adopted: boolean,
): Promise<SendOutcome> {
  const phase = phaseOf(task.status, input.handled);
  const decided = phase
    ? { phase, status: statusKeyOf(task.status), statusText: messageText(task.status.message) }
    : undefined;
  let sent = withoutHistory(task);
  if (phase && deps.artifacts && task.artifacts?.length) {
    await view.read(task);
    sent = { ...sent, artifacts: (await view.result(phase)).artifacts };
  } else if (sent.artifacts) {
    sent = { ...sent, artifacts: sent.artifacts.map(withoutReservedMetadata) }; // a stranger does not forge our references
  }
  return withinPayloadLimit(
    { kind: 'task', task: sent, adopted, ...(decided ? { decided } : {}) },
    input.agent.name,
    `task ${task.id}`,
    deps.offloadsPayloads,
  );
}

/**
 * The task that already holds `message`, if an earlier attempt delivered it. Agents without
 * ListTasks (A2A 0.3) cannot be asked for a new conversation: the message is then sent again
 * (at-least-once), which docs/architecture.md states.
 */
export async function findSentTask(
  client: A2AClient,
  message: Message,
  signal: AbortSignal,
): Promise<Task | undefined> {
  return (await lookUpSentTask(client, message, signal)) ?? undefined;
}

/** {@link findSentTask}, telling "not there (yet)" (undefined) from "cannot look" (null). */
async function lookUpSentTask(
  client: A2AClient,
  message: Message,
  signal: AbortSignal,
): Promise<Task | undefined | null> {
  // Our message in its history, and (when the task says) our context: a task of another conversation is not ours.
  const holds = (task: Task) =>
    (!task.contextId || !message.contextId || task.contextId === message.contextId) &&
    (task.history?.some((m) => m.messageId === message.messageId) ?? false);
  if (message.taskId) {
    const task = await client.getTask({ id: message.taskId, historyLength: LOOKBACK }, { signal });
    return holds(task) ? task : undefined;
  }
  if (!message.contextId) return null;
  try {
    const { tasks } = await client.listTasks(
      { contextId: message.contextId, historyLength: LOOKBACK, pageSize: 50 },
      { signal },
    );
    return tasks.find(holds);
  } catch (err) {
    if (err instanceof A2AError && !err.retryable) {
      log.warn('the agent cannot list tasks; resending the message (at-least-once)', { code: err.code });
      return null;
    }
    throw err;
  }
}
