/**
 * "Is this the status the delegation already answered?" — one rule for every place that sees a
 * task's status again: a tracking round, the task a send returns, a push delivery. Right after
 * an answer an agent may still report the question it asked (see the design's traps); seeing
 * that status again is never a new question, and never worth waking the delegation for.
 */
import type { TaskStatus } from '../a2a/index.js';
import type { StatusKey } from './delegation-types.js';

/** What identifies this status: the same question seen twice has the same key. */
export function statusKeyOf(status: TaskStatus): StatusKey {
  return { state: status.state, messageId: status.message?.messageId, timestamp: status.timestamp };
}

/**
 * True when `seen` is the status `answered` describes: the same state, and the same status
 * message id when either has one; without ids the timestamp decides; without either, any status
 * in the same state counts as the same one. A push delivery that shows no state (an artifact
 * update) is never the answered status.
 */
export function isAnsweredStatus(seen: Partial<StatusKey>, answered: StatusKey | undefined): boolean {
  if (!answered || seen.state !== answered.state) return false;
  if (answered.messageId || seen.messageId) return answered.messageId === seen.messageId;
  if (answered.timestamp || seen.timestamp) return answered.timestamp === seen.timestamp;
  return true;
}
