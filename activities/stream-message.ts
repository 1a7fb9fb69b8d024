import { Context, log } from '@temporalio/activity';
import type { Message, StreamOptions } from '../a2a/index.js';
import type { AgentRef } from '../contract/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { heartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { isTransient } from './reachability.js';
import { awaitEarlierSend, sentAtOf } from './send-message.js';
import type { TrackOutcome } from './task-outcome.js';
import {
  followerOf,
  followStream,
  progressOf,
  resumeFollowing,
  STREAM_IDLE_MS,
  StreamEndedEarly,
  withReachability,
  type RoundSettings,
} from './track-task.js';

export interface StreamMessageInput extends RoundSettings {
  agent: AgentRef;
  /** The complete message, ids included: they come from the workflow, so every retry sends the same ones. */
  message: Message;
  acceptedOutputModes?: string[];
  handled?: TrackOutcome['status'];
}

/** A stream turn ends with the agent's direct reply, or with the task decided (or still running at the round's end). */
export type StreamTurnOutcome = { kind: 'message'; message: Message } | ({ kind: 'task' } & TrackOutcome);

/**
 * One turn in stream mode: SendStreamingMessage, then the reply stream is followed until the task
 * is terminal or asks a new question — one activity and one request where send-then-subscribe
 * takes two of each. It heartbeats from the moment the request leaves, so an agent slow to
 * acknowledge is not taken for a dead worker. A message is never sent twice: a retry (a new
 * attempt, or a transient failure before the task was named) resubscribes to the task the
 * heartbeat names, or first looks for the task our message id created and adopts it; only when
 * there is none does it send again.
 */
export async function streamMessage(deps: ActivityDeps, input: StreamMessageInput): Promise<StreamTurnOutcome> {
  const context = Context.current();
  const { message } = input;
  const { view, reach } = resumeFollowing(deps, input, {
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.contextId ? { contextId: message.contextId } : {}),
  });
  // When a send left (an earlier attempt's, from its heartbeat): until its request timeout, it may still create its task.
  let earlierSentAt = sentAtOf(context.info.heartbeatDetails);
  let sentAt = earlierSentAt;
  const details = () => ({ ...progressOf(view, reach), ...(sentAt === undefined ? {} : { sentAt }) });
  // On cancellation the workflow learns the task id (and what was received) from the failure's details.
  return asActivity(
    input.agent.name,
    async () => {
      const client = await clientFor(deps, input.agent);
      const signal = context.cancellationSignal;
      const heartbeats = heartbeating(details);
      const follower = followerOf(deps, client, input, { view, reach }, heartbeats.beat);
      let mayHaveSent = context.info.attempt > 1;
      try {
        for (;;) {
          if (!view.task.id && mayHaveSent) {
            const window = deps.requestTimeoutMs;
            const existing = await awaitEarlierSend(client, input.message, earlierSentAt, window, signal);
            earlierSentAt = undefined; // a failure within this attempt tells whether the send got through
            if (existing) {
              log.info('adopted the task our message created earlier', {
                taskId: existing.id,
                messageId: input.message.messageId,
              });
              await view.read(existing);
            }
          }
          const opening = view.task.id
            ? undefined // resuming: subscribe to the task (its first event, a snapshot, replaces what was seen)
            : (round: AbortSignal, options: Pick<StreamOptions, 'fileBytes'>) => {
                sentAt = Date.now();
                return client.sendStreamingMessage(
                  { message: input.message, configuration: { acceptedOutputModes: input.acceptedOutputModes } },
                  { signal: round, idleTimeoutMs: STREAM_IDLE_MS, ...options },
                );
              };
          mayHaveSent = true;
          try {
            const end = await followStream(follower, opening);
            const offloaded = deps.offloadsPayloads;
            if (end.kind === 'message') return withinPayloadLimit(end, input.agent.name, 'its direct reply', offloaded);
            const outcome = { kind: 'task' as const, ...withReachability(end.outcome, reach) };
            return withinPayloadLimit(outcome, input.agent.name, `task ${view.task.id}`, offloaded);
          } catch (err) {
            // Before the task was named we cannot tell whether the agent got the message: look before sending again.
            if (view.task.id || !(isTransient(err) || err instanceof StreamEndedEarly)) throw err;
            await reach.failed(err);
          }
        }
      } finally {
        heartbeats.stop();
      }
    },
    details,
  );
}
