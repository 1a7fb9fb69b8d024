/**
 * The bare-SDK baseline's whole bundle: one workflow that waits for the `answer` signal. It
 * publishes `A2aTaskState` once (how the bench finds parked workflows, whatever the variant);
 * nothing else: no state object, no query, no interceptors.
 */
import { condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { answerSignal } from '../../contract/messages.js';
import { A2A_TASK_STATE } from '../../contract/search-attributes.js';

export async function waitForSignal(): Promise<void> {
  let answered = false;
  setHandler(answerSignal, () => {
    answered = true;
  });
  upsertSearchAttributes([{ key: A2A_TASK_STATE, value: 'TASK_STATE_INPUT_REQUIRED' }]);
  await condition(() => answered);
}
