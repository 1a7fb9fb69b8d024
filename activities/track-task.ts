import { Context } from '@temporalio/activity';
import {
  StreamIdleTimeoutError,
  UnsupportedOperationError,
  type A2AClient,
  type StreamResponse,
} from '../a2a/index.js';
import type { AgentRef, StatusKey } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withinPayloadLimit } from './payload-limit.js';
import { decide, TaskView, type TrackOutcome, type TrackProgress } from './task-outcome.js';

export { decide } from './task-outcome.js';
export type { ArtifactProgress, TrackOutcome, TrackPhase, TrackProgress } from './task-outcome.js';

/** See {@link heartbeating}. Far below any heartbeat timeout (5 s by default). */
const QUIET_MS = 250;

export interface TrackTaskInput {
  agent: AgentRef;
  taskId: string;
  mode: 'stream' | 'poll';
  /** An interrupted status already answered: seeing it again is not a new question (see the design's traps). */
  handled?: StatusKey;
  /** Hand back with phase `running` after this long, so one activity never runs unbounded. */
  roundMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  /** Stream mode: with no event for this long, check the task with GetTask and subscribe again. @default 30_000 */
  idleMs?: number;
}

/**
 * Follows the task until it is terminal or asks a NEW question (or the round ends), by
 * SubscribeToTask (stream) or GetTask with capped exponential backoff (poll). Heartbeats what it
 * has seen; a new attempt after a crash resubscribes, and the first event (the task snapshot)
 * replaces what was assembled, so no artifact text is repeated.
 */
export async function trackTask(deps: ActivityDeps, input: TrackTaskInput): Promise<TrackOutcome> {
  return asActivity(input.agent.name, async () => {
    const context = Context.current();
    const view = new TaskView(input.taskId, context.info.heartbeatDetails as TrackProgress | undefined);
    const { beat, stop } = heartbeating(view);
    try {
      const client = clientFor(deps, input.agent);
      const deadline = Date.now() + input.roundMs;
      const outcome =
        input.mode === 'stream'
          ? await followStream(client, input, view, beat, deadline)
          : await poll(client, input, view, beat, deadline);
      return withinPayloadLimit(outcome, input.agent.name, input.taskId);
    } finally {
      stop();
    }
  });
}

/**
 * Heartbeats what `view` has seen: on every event (`beat`, throttled by the SDK) and on a timer,
 * so a silent stream still heartbeats (and hears a cancellation). Nothing before the task id is
 * known, and nothing in the first QUIET_MS: a turn that ends that fast needs no heartbeat (a
 * retry of it finds its task by message id), and skipping it saves a server call per turn.
 */
export function heartbeating(view: TaskView): { beat: () => void; stop: () => void } {
  const context = Context.current();
  const quietUntil = Date.now() + QUIET_MS;
  const beat = () => {
    if (view.task.id && Date.now() >= quietUntil) context.heartbeat(view.progress());
  };
  const timer = setInterval(beat, Math.max(200, Math.min(1_000, (context.info.heartbeatTimeoutMs ?? 3_000) / 3)));
  return { beat, stop: () => clearInterval(timer) };
}

/** What following a stream needs (the task id comes from the view: a send learns it from its first event). */
export type FollowStreamInput = Pick<TrackTaskInput, 'handled' | 'pollInitialMs' | 'pollMaxMs' | 'idleMs'>;

/**
 * Follows the task's stream until it decides (see {@link decide}) or `deadline`: the `opening`
 * stream first when given (SendStreamingMessage), then SubscribeToTask, re-reading the task
 * with GetTask whenever a stream ends or stays idle.
 */
export async function followStream(
  client: A2AClient,
  input: FollowStreamInput,
  view: TaskView,
  beat: () => void,
  deadline: number,
  opening?: (signal: AbortSignal) => AsyncIterable<StreamResponse>,
): Promise<TrackOutcome> {
  const context = Context.current();
  let pause = input.pollInitialMs;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return view.outcome('running');
    const round = AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(remaining)]);
    const before = view.events;
    try {
      const events =
        opening?.(round) ??
        client.subscribeToTask({ id: view.task.id }, { signal: round, idleTimeoutMs: input.idleMs ?? 30_000 });
      opening = undefined;
      for await (const event of events) {
        view.apply(event);
        beat();
        const phase = decide(view.status, input.handled);
        if (phase) return view.outcome(phase);
      }
    } catch (err) {
      const recoverable = err instanceof StreamIdleTimeoutError || err instanceof UnsupportedOperationError;
      if (round.aborted && !context.cancellationSignal.aborted) return view.outcome('running');
      if (!recoverable) throw err;
      // Idle (streams carry no keep-alives) or not subscribable (already terminal): read the truth below.
    }
    // A send's stream that ended before its first event leaves no task to read: let a retry (which looks for it) decide.
    if (!view.task.id) throw new Error('the agent closed the stream before it sent the task');
    const task = await client.getTask({ id: view.task.id, historyLength: 0 }, { signal: context.cancellationSignal });
    view.snapshot(task);
    beat();
    const phase = decide(view.status, input.handled);
    if (phase) return view.outcome(phase);
    // Still running and the stream ended: subscribe again, pausing longer while nothing happens.
    pause = view.events > before + 1 ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= deadline) return view.outcome('running');
    await context.sleep(pause);
  }
}

async function poll(
  client: A2AClient,
  input: TrackTaskInput,
  view: TaskView,
  beat: () => void,
  deadline: number,
): Promise<TrackOutcome> {
  const context = Context.current();
  let pause = input.pollInitialMs;
  for (;;) {
    const before = view.fingerprint();
    view.snapshot(await client.getTask({ id: input.taskId, historyLength: 0 }, { signal: context.cancellationSignal }));
    beat();
    const phase = decide(view.status, input.handled);
    if (phase) return view.outcome(phase);
    pause = view.fingerprint() !== before ? input.pollInitialMs : Math.min(pause * 1.5, input.pollMaxMs);
    if (Date.now() + pause >= deadline) return view.outcome('running');
    await context.sleep(pause);
  }
}
