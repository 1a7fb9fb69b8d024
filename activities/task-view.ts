/** Small, pure views of A2A objects that activities hand to workflows. */
import type { Message, Task } from '../a2a/index.js';

/** The task without its message history: history is the agent's record, not ours to store. */
export function withoutHistory(task: Task): Task {
  const { history: _history, ...rest } = task;
  return rest;
}

/** The text of a message: its text parts, joined. */
export function messageText(message: Message | undefined): string {
  return (message?.parts ?? [])
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}
