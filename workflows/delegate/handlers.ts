/**
 * The messages a delegation answers: the `status` query, the `answer` update (validated: nothing
 * reaches history when it is refused) and signal, and push mode's `taskUpdated` notice.
 */
import { currentUpdateInfo, log, setHandler, uuid4 } from '@temporalio/workflow';
import type { DelegationState } from './delegation-state.js';
import { answerSignal, answerUpdate, delegationStatusQuery, taskUpdatedSignal } from '../../contract/messages.js';
import type { PushNotices } from './modes/index.js';

export function handleDelegationMessages(state: DelegationState, notices: PushNotices): void {
  setHandler(delegationStatusQuery, () => state.status);
  setHandler(
    answerUpdate,
    (answer) => state.accept(answer, answer.answerId ?? currentUpdateInfo()?.id ?? uuid4(), uuid4()),
    {
      validator: (answer) => {
        const why = state.rejectionOf(answer);
        if (why) throw new Error(why);
      },
    },
  );
  setHandler(answerSignal, (answer) => {
    const why = state.rejectionOf(answer);
    if (why) log.warn('answer signal ignored', { reason: why });
    else state.accept(answer, answer.answerId ?? uuid4(), uuid4());
  });
  setHandler(taskUpdatedSignal, (notice) => {
    if (!notices.receive(notice, state.taskId, state.handled)) {
      log.debug('taskUpdated ignored: another task, or the question already answered', { taskId: notice?.taskId });
    }
  });
}
