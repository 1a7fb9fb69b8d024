/**
 * An answer cannot land on the wrong question: an answer that does not name its question on
 * purpose and repeats the previous question's answer moments after the next question was asked
 * is a late duplicate — the update refuses it with a sentence, the signal drops it — while the
 * same text named on purpose, or given after the window, answers the question that waits.
 */
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { answerSignal, answerUpdate, type AnswerInput, type DelegateInput } from '../../contract/index.js';
import { LATE_DUPLICATE_WINDOW_MS } from '../../workflows/late-duplicate.js';
import { outcome, turn } from './scripted-agent.js';
import { questionOf, useScriptedWorker } from './support.js';

const temporal = useScriptedWorker('time-skipping');

const request: DelegateInput = { agent: 'compat', label: 'compat', text: 'Check payment-service for Node.js 24' };
const ask = (n: number) =>
  turn(outcome('input-required', { text: `Question ${String(n)}?`, messageId: `m-${String(n)}` }));

/** The refusal's sentence, or undefined when the update took the answer. */
async function refusalOf(handle: WorkflowHandle, answer: AnswerInput): Promise<string | undefined> {
  return handle.executeUpdate(answerUpdate, { args: [answer] }).then(
    () => undefined,
    (err: unknown) => {
      expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
      return ((err as WorkflowUpdateFailedError).cause as Error).message;
    },
  );
}

describe('delegate: late duplicate answers', () => {
  it('refuses the previous answer again while the next question is new, unless it names that question on purpose', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'stream' }, [
      { call: 'a2a.streamMessage', answer: ask(1) },
      { call: 'a2a.streamMessage', answer: ask(2) },
      { call: 'a2a.streamMessage', answer: ask(3) },
      { call: 'a2a.streamMessage', answer: ask(4) },
      { call: 'a2a.streamMessage', answer: turn(outcome('completed')) },
    ]);
    await questionOf(handle, 'q1');
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 22' }] });
    await questionOf(handle, 'q2');

    // Without a question id, or bound to the question that was pending when the caller started.
    for (const late of [{ text: 'Node.js 22' }, { text: ' Node.js 22 ', questionId: 'q2', boundToPending: true }]) {
      expect(await refusalOf(handle, late)).toMatch(
        /^This answer repeats the one question q1 just got, and question q2 of the delegation to compat was asked \d+ s ago, so it is taken for a late duplicate of that answer; nothing was sent\. To give question q2 the same answer on purpose, name it: a2a-temporal answer <id> --question q2 "<text>"/,
      );
    }
    // The signal drops it (and logs why); the answer meant for q2 is then taken.
    await handle.signal(answerSignal, { text: 'Node.js 22' });
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'pnpm' }] });
    await questionOf(handle, 'q3');

    // Named on purpose, the same text answers the new question at once.
    expect(await refusalOf(handle, { text: 'pnpm', questionId: 'q3' })).toBeUndefined();
    await questionOf(handle, 'q4');

    // Once the window has passed, the same text without a question id is an answer again.
    await temporal.sleep(LATE_DUPLICATE_WINDOW_MS);
    expect(await refusalOf(handle, { text: 'pnpm' })).toBeUndefined();

    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 4 });
    const sentTexts = agent.inputsOf('a2a.streamMessage').map((input) => input.message.parts);
    expect(sentTexts.slice(1)).toEqual([
      [{ text: 'Node.js 22' }],
      [{ text: 'pnpm' }],
      [{ text: 'pnpm' }],
      [{ text: 'pnpm' }],
    ]);
    agent.expectPlayed();
  });
});
