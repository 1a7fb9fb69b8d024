/**
 * The late-duplicate rule of answers, for a delegation and for a coordinator that relays answers
 * to its delegations (docs/answers.md): an answer that does not name its question on purpose (no
 * `questionId`, or the one a tool bound to when it started) is refused while it repeats the answer
 * the previous question of the same delegation got and the question that waits was asked less
 * than {@link LATE_DUPLICATE_WINDOW_MS} ago. Pure: the workflows pass their own clock.
 */
import type { AnswerInput, PendingQuestion } from '../contract/delegation-types.js';

/**
 * How long after a question is asked an answer that does not name it on purpose, and repeats
 * the answer the previous question just got, is taken for a late duplicate of that answer (a
 * retried call, a second terminal, an `answer` started before the new question showed) and
 * refused. Long enough for a CLI started under load to reach the server; short enough that a
 * person who reads the new question and gives the same answer is rarely refused, and is then
 * told how to answer it on purpose.
 */
export const LATE_DUPLICATE_WINDOW_MS = 30_000;

/** The answer a delegation's previous question got. */
export interface PreviousAnswer {
  questionId: string;
  /** Trimmed. */
  text: string;
}

/**
 * Why `answer` is refused as a late duplicate of `previous` while `question` waits (a sentence
 * that never repeats the answer's text: it may be a secret), or undefined. `whose`: the
 * delegation as the sentence names it ("the delegation to compat"); `now`: epoch ms.
 */
export function lateDuplicateOf(
  answer: AnswerInput,
  question: Pick<PendingQuestion, 'id' | 'askedAt'>,
  previous: PreviousAnswer | undefined,
  whose: string,
  now: number,
): string | undefined {
  if (answer.questionId !== undefined && !answer.boundToPending) return undefined;
  if (!previous || previous.questionId === question.id || previous.text !== answer.text.trim()) return undefined;
  const ago = now - Date.parse(question.askedAt);
  if (!(ago < LATE_DUPLICATE_WINDOW_MS)) return undefined;
  const id = question.id ?? 'the question that waits';
  return `This answer repeats the one question ${previous.questionId} just got, and question ${id} of ${whose} was asked ${String(Math.max(0, Math.round(ago / 1000)))} s ago, so it is taken for a late duplicate of that answer; nothing was sent. To give question ${id} the same answer on purpose, name it: a2a-temporal answer <id> --question ${id} "<text>" (or questionId: '${id}' in the update).`;
}
