/** Small, pure views of A2A objects that activities hand to workflows. */
import type { Message, Task, TaskStatus } from '../a2a/index.js';
import type { StatusKey } from '../contract/delegation-types.js';

/** The task without its message history: history is the agent's record, not ours to store. */
export function withoutHistory(task: Task): Task {
  const { history: _history, ...rest } = task;
  return rest;
}

/** What identifies this status: the same question seen twice has the same key. */
export function statusKeyOf(status: TaskStatus): StatusKey {
  return { state: status.state, messageId: status.message?.messageId, timestamp: status.timestamp };
}

/**
 * True when `status` is the one described by `key`. Without a status message id, the timestamp
 * decides; without either, any status in the same state counts as the same one.
 */
export function isSameStatus(status: TaskStatus, key: StatusKey | undefined): boolean {
  if (!key || key.state !== status.state) return false;
  if (key.messageId || status.message?.messageId) return key.messageId === status.message?.messageId;
  if (key.timestamp || status.timestamp) return key.timestamp === status.timestamp;
  return true;
}

/** The text of a message: its text parts, joined. */
export function messageText(message: Message | undefined): string {
  return (message?.parts ?? [])
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}
