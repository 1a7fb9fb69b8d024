/**
 * Every call the CLI makes to Temporal has a deadline. Without one, a call through a link that
 * holds the connection open while no byte moves (half-open) waits until grpc-js's keepalive gives
 * up (30 s + 15 s) and then its retries run out, minutes later; with one it fails in time, and the
 * CLI says so in one sentence. Long polls (a workflow's result, an update's outcome), which the
 * server itself answers within 20 s when nothing happens, get {@link LONG_POLL_DEADLINE_MS}.
 */
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';

/** A unary call's deadline unless `--connect-timeout` asks for more. */
export const CALL_DEADLINE_MS = 15_000;
/** A long poll (the server answers these within 20 s when nothing happens). */
const LONG_POLL_DEADLINE_MS = 75_000;

const LONG_POLLS = /\/(GetWorkflowExecutionHistory|PollWorkflowExecutionUpdate|UpdateWorkflowExecution)$/;

/**
 * Gives each call without a deadline of its own (see `withDeadline`) `unaryMs`, or the long-poll
 * deadline (at least `unaryMs`). Put it before the retry interceptor: the deadline then bounds the
 * call with its retries.
 */
export function callDeadlines(unaryMs: number): Interceptor {
  const longPollMs = Math.max(unaryMs, LONG_POLL_DEADLINE_MS);
  return (options, nextCall) => {
    if (options.deadline !== undefined) return new InterceptingCall(nextCall(options));
    const ms = LONG_POLLS.test(options.method_definition.path) ? longPollMs : unaryMs;
    return new InterceptingCall(nextCall({ ...options, deadline: Date.now() + ms }));
  };
}
