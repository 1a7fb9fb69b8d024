import { Context, log } from '@temporalio/activity';
import type { Message, StreamResponse } from '../a2a/index.js';
import type { AgentRef } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withinPayloadLimit } from './payload-limit.js';
import { findSentTask } from './send-message.js';
import { TaskView, type TrackOutcome, type TrackProgress } from './task-outcome.js';
import { followStream, heartbeating, type FollowStreamInput } from './track-task.js';

export interface StreamMessageInput extends FollowStreamInput {
  agent: AgentRef;
  /** The complete message, ids included: they come from the workflow, so every retry sends the same ones. */
  message: Message;
  acceptedOutputModes?: string[];
  /** Hand back with phase `running` after this long (the workflow goes on with tracking rounds). */
  roundMs: number;
}

/** A stream turn ends with the agent's direct reply, or with the task decided (or still running at the round's end). */
export type StreamTurnOutcome = { kind: 'message'; message: Message } | ({ kind: 'task' } & TrackOutcome);

/** Thrown inside the opening stream when the agent answers with a message instead of a task. */
class DirectReply {
  constructor(readonly message: Message) {}
}

/**
 * One turn in stream mode: SendStreamingMessage, then the reply stream is followed until the task
 * is terminal or asks a new question — one activity and one request where send-then-subscribe
 * takes two of each. A retry never sends twice: it resubscribes to the task its heartbeat names,
 * or first looks for the task an earlier attempt created (our messageId in the task's or the
 * context's history) and adopts it; only when there is none does it send again.
 */
export async function streamMessage(deps: ActivityDeps, input: StreamMessageInput): Promise<StreamTurnOutcome> {
  const context = Context.current();
  const resumed = context.info.heartbeatDetails as TrackProgress | undefined;
  const view = new TaskView(resumed?.taskId ?? '', resumed);
  // On cancellation the workflow learns the task id from the failure's details, to cancel the task.
  return asActivity(
    input.agent.name,
    async () => {
      const client = clientFor(deps, input.agent);
      const signal = context.cancellationSignal;
      if (!view.task.id && context.info.attempt > 1) {
        const existing = await findSentTask(client, input.message, signal);
        if (existing) {
          log.info('adopted the task created by an earlier attempt', {
            taskId: existing.id,
            messageId: input.message.messageId,
          });
          view.snapshot(existing);
        }
      }
      const opening = view.task.id
        ? undefined // resuming: subscribe to the task (its first event, a snapshot, replaces what was seen)
        : (round: AbortSignal) =>
            firstStream(
              client.sendStreamingMessage(
                { message: input.message, configuration: { acceptedOutputModes: input.acceptedOutputModes } },
                { signal: round, idleTimeoutMs: input.idleMs ?? 30_000 },
              ),
              view,
            );
      const { beat, stop } = heartbeating(view);
      try {
        const outcome = await followStream(client, input, view, beat, Date.now() + input.roundMs, opening);
        return withinPayloadLimit({ kind: 'task' as const, ...outcome }, input.agent.name, view.task.id);
      } catch (err) {
        if (err instanceof DirectReply) return { kind: 'message' as const, message: err.message };
        throw err;
      } finally {
        stop();
      }
    },
    (): Partial<TrackProgress> => ({ taskId: view.task.id || undefined }),
  );
}

/** The send's stream, stopping with a DirectReply when the agent answers with a message, not a task. */
async function* firstStream(events: AsyncIterable<StreamResponse>, view: TaskView): AsyncIterable<StreamResponse> {
  for await (const event of events) {
    if ('message' in event && !view.task.id) throw new DirectReply(event.message);
    yield event;
  }
}
