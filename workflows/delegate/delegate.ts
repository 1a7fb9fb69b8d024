/**
 * `delegate`: one remote A2A task, from the first message to a terminal state, with any number
 * of questions in between. Each round sends a message (the request, then each answer), follows
 * the task until it decides, and asks a person when the agent asks. Any workflow can run it as a
 * child (see child.ts); the release coordinator does. The run itself is a {@link Delegation}.
 */
import type { DelegateInput, DelegateResult } from '../../contract/delegation-types.js';
import { Delegation } from './delegation.js';
import { handleDelegationMessages } from './handlers.js';

/** The `delegate` workflow: one remote A2A task, from the message sent to its terminal state, with the questions the agent asks on the way answered through the `answer` update or signal. See [docs/architecture.md](../../docs/architecture.md#how-a-delegation-survives-crashes). */
export async function delegate(input: DelegateInput): Promise<DelegateResult> {
  const run = new Delegation(input);
  handleDelegationMessages(run.state, run.notices); // handlers first: a question can be answered as soon as it is asked
  try {
    // Each `await` is a promise the SDK captures a stack trace for: none where the value is at hand.
    const result = run.complete(await run.withinDeadline(() => run.converse()));
    return result instanceof Promise ? await result : result;
  } catch (err) {
    throw await run.end(err);
  } finally {
    const closing = run.close();
    if (closing) await closing;
  }
}
