/**
 * The `answer` update and signal of a workflow that takes answers (a delegation, a coordinator
 * that relays them). The update is validated, so a refused answer never reaches history, and
 * returns the receipt; the signal is checked by the same rule and ignored with a warning when
 * refused. An answer's id is its idempotency key: the caller's, else the update's id, else new.
 */
import type { UpdateDefinition } from '@temporalio/common';
import { currentUpdateInfo, log, setHandler, uuid4 } from '@temporalio/workflow';
import type { AnswerInput } from '../contract/delegation-types.js';
import { answerSignal } from '../contract/messages.js';

export interface AnswerTaker<R> {
  /** Why this answer cannot be taken now, as a sentence for the caller, or undefined. */
  rejectionOf(answer: AnswerInput): string | undefined;
  /** Takes an answer that passed {@link rejectionOf}, under `answerId`. */
  take(answer: AnswerInput, answerId: string): R | Promise<R>;
}

export function handleAnswers<R>(update: UpdateDefinition<R, [AnswerInput]>, taker: AnswerTaker<R>): void {
  setHandler(update, (answer) => taker.take(answer, answer.answerId ?? currentUpdateInfo()?.id ?? uuid4()), {
    validator: (answer) => {
      const why = taker.rejectionOf(answer);
      if (why) throw new Error(why);
    },
  });
  // Not async: a delegation takes an answer synchronously, and a handler that returns no promise costs none.
  setHandler(answerSignal, (answer) => {
    const why = taker.rejectionOf(answer);
    if (why) return log.warn('answer signal ignored', { reason: why });
    const taken = taker.take(answer, answer.answerId ?? uuid4());
    return taken instanceof Promise ? taken.then(() => undefined) : undefined;
  });
}
