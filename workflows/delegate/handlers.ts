/**
 * The messages a delegation answers: the `status` query, the `answer` update and signal (see
 * answer-handlers.ts), and push mode's `taskUpdated` notice and `taskUpdateWanted` query.
 */
import { log, setHandler, uuid4 } from '@temporalio/workflow';
import {
  delegationStatusQuery,
  answerUpdate,
  taskUpdatedSignal,
  taskUpdateWantedQuery,
} from '../../contract/messages.js';
import { handleAnswers } from '../answer-handlers.js';
import type { DelegationState } from './delegation-state.js';
import type { PushNotices } from './modes/index.js';

export function handleDelegationMessages(state: DelegationState, notices: PushNotices): void {
  setHandler(delegationStatusQuery, () => state.status);
  handleAnswers(answerUpdate, {
    rejectionOf: (answer) => state.rejectionOf(answer),
    take: (answer, answerId) => state.accept(answer, answerId, uuid4()), // uuid4: the id of the message that carries it
  });
  setHandler(taskUpdateWantedQuery, (notice) => notices.wants(notice, state.taskId, state.handled));
  setHandler(taskUpdatedSignal, (notice) => {
    if (!notices.receive(notice, state.taskId, state.handled)) {
      log.debug('taskUpdated ignored: another task, or the question already answered', { taskId: notice?.taskId });
    }
  });
}
