import { Context } from '@temporalio/activity';
import { StreamIdleTimeoutError, UnsupportedOperationError, type A2AClient } from '../a2a/index.js';
import type { AgentRef, StatusKey } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withinPayloadLimit } from './payload-limit.js';
import { decide, TaskView, type TrackOutcome, type TrackProgress } from './task-outcome.js';

export { decide } from './task-outcome.js';
export type { ArtifactProgress, TrackOutcome, TrackPhase, TrackProgress } from './task-outcome.js';

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
    const beat = () => context.heartbeat(view.progress());
    const keepAlive = setInterval(beat, Math.max(200, Math.min(1_000, (context.info.heartbeatTimeoutMs ?? 3_000) / 3)));
    try {
      const client = clientFor(deps, input.agent);
      const deadline = Date.now() + input.roundMs;
      const outcome =
        input.mode === 'stream' ? await followStream(client, input, view, beat, deadline) : await poll(client, input, view, beat, deadline);
      return withinPayloadLimit(outcome, input.agent.name, input.taskId);
    } finally {
      clearInterval(keepAlive);
    }
  });
}

async function followStream(client: A2AClient, input: TrackTaskInput, view: TaskView, beat: () => void, deadline: number): Promise<TrackOutcome> {
  const context = Context.current();
  let pause = input.pollInitialMs;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return view.outcome('running');
    const round = AbortSignal.any([context.cancellationSignal, AbortSignal.timeout(remaining)]);
    const before = view.events;
    try {
      for await (const event of client.subscribeToTask({ id: input.taskId }, { signal: round, idleTimeoutMs: input.idleMs ?? 30_000 })) {
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
    const task = await client.getTask({ id: input.taskId, historyLength: 0 }, { signal: context.cancellationSignal });
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

async function poll(client: A2AClient, input: TrackTaskInput, view: TaskView, beat: () => void, deadline: number): Promise<TrackOutcome> {
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

