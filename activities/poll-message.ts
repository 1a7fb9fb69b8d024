import { CancelledFailure, Context } from '@temporalio/activity';
import type { Message } from '../a2a/index.js';
import type { ActivityDeps } from './deps.js';
import { finalFailure } from './failures.js';
import { isTransient } from './reachability.js';
import { phaseOf } from './task-outcome.js';
import { pollTask, type Follower } from './track-task.js';
import { runTurn, type Turn, type TurnInput, type TurnOutcome } from './turn.js';

/**
 * One turn in poll mode: SendMessage with `returnImmediately`, then, while the task runs, GetTask
 * with capped backoff until it decides or the round ends — one activity where send-then-track
 * takes two. Heartbeats from the moment the request leaves. A message is never sent twice: a retry
 * polls the task the heartbeat names, or first looks for the task our message id created (until
 * the earlier send's request timeout has passed) and adopts it; only when there is none does it
 * send again.
 *
 * A cancellation never aborts the send itself: the workflow must learn the task id of what it
 * sent, to cancel it. It takes effect once the task is known (the failure's details name it), or
 * during a retry's look for an earlier send (the workflow then looks the task up by message id).
 */
export function pollMessage(deps: ActivityDeps, input: TurnInput): Promise<TurnOutcome> {
  return runTurn(deps, input, async (turn, follower) => {
    const { view } = turn;
    const context = Context.current();
    for (let mayHaveSent = context.info.attempt > 1; !view.task.id; mayHaveSent = true) {
      if (mayHaveSent && (await turn.adoptEarlierSend(follower.client, context.cancellationSignal))) break;
      const reply = await send(turn, follower);
      if (reply) return reply;
    }
    follower.beat(); // the heartbeat names the task (as soon as heartbeats may go): a retry polls it
    if (context.cancellationSignal.aborted) throw new CancelledFailure('the activity was cancelled');
    const phase = phaseOf(view.status, input.handled);
    return phase ? { kind: 'task', outcome: await view.result(phase) } : await pollTask(follower);
  });
}

/**
 * One SendMessage with `returnImmediately`, not aborted by a cancellation (bounded by its request
 * timeout). The task it returns goes into the turn's view; a direct reply is returned. A transient
 * failure counts against the turn's reachability and returns nothing: the caller looks for the
 * task before sending again.
 */
async function send(turn: Turn, follower: Follower): Promise<{ kind: 'message'; message: Message } | undefined> {
  const { view, reach, input } = turn;
  const askedAt = reach.asking('SendMessage');
  turn.sentAt = askedAt;
  let response;
  try {
    response = await follower.client.sendMessage(
      {
        message: input.message,
        configuration: { returnImmediately: true, historyLength: 0, acceptedOutputModes: input.acceptedOutputModes },
      },
      { timeoutMs: reach.timeoutFor(follower.requestTimeoutMs) },
    );
  } catch (err) {
    if (!isTransient(err)) throw err;
    // Asked to wait longer than the delegation gives a silent agent: rate-limited, not unreachable; fail now.
    if (err.retryAfterMs !== undefined && err.retryAfterMs >= reach.leftMs()) throw finalFailure(err, input.agent.name);
    await reach.failed(err, askedAt);
    return undefined;
  }
  reach.answered();
  if ('message' in response) return { kind: 'message', message: response.message };
  await view.read(response.task);
  return undefined;
}
