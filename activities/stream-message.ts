import { Context } from '@temporalio/activity';
import type { StreamOptions } from '../a2a/index.js';
import type { ActivityDeps } from './deps.js';
import { isTransient } from './reachability.js';
import { followStream, STREAM_IDLE_MS, StreamEndedEarly } from './track-task.js';
import { runTurn, type TurnInput, type TurnOutcome } from './turn.js';

/**
 * One turn in stream mode: SendStreamingMessage, then the reply stream is followed until the task
 * is terminal or asks a new question — one activity and one request where send-then-subscribe
 * takes two of each. It heartbeats from the moment the request leaves, so an agent slow to
 * acknowledge is not taken for a dead worker. A message is never sent twice: a retry (a new
 * attempt, or a transient failure before the task was named) resubscribes to the task the
 * heartbeat names, or first looks for the task our message id created and adopts it; only when
 * there is none does it send again.
 */
export function streamMessage(deps: ActivityDeps, input: TurnInput): Promise<TurnOutcome> {
  return runTurn(deps, input, async (turn, follower) => {
    const { view, reach } = turn;
    const { client } = follower;
    const context = Context.current();
    for (let mayHaveSent = context.info.attempt > 1; ; mayHaveSent = true) {
      if (!view.task.id && mayHaveSent) await turn.adoptEarlierSend(client, context.cancellationSignal);
      const opening = view.task.id
        ? undefined // resuming: subscribe to the task (its first event, a snapshot, replaces what was seen)
        : (round: AbortSignal, options: Pick<StreamOptions, 'fileBytes'>) => {
            turn.sentAt = Date.now();
            return client.sendStreamingMessage(
              // No history: the task snapshot would carry every message of the task back (ours included).
              {
                message: input.message,
                configuration: { historyLength: 0, acceptedOutputModes: input.acceptedOutputModes },
              },
              { signal: round, idleTimeoutMs: STREAM_IDLE_MS, ...options },
            );
          };
      try {
        return await followStream(follower, opening);
      } catch (err) {
        // Before the task was named we cannot tell whether the agent got the message: look before sending again.
        if (view.task.id || !(isTransient(err) || err instanceof StreamEndedEarly)) throw err;
        await reach.failed(err);
      }
    }
  });
}
