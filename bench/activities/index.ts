/**
 * Activities of the bench's baseline designs (`blocking_activity`, `timer_poll`); they are not
 * part of the product. Registered next to the product's activities in the bench worker.
 */
import type { AgentRegistry } from '../../activities/index.js';
import { baselineDeps } from './agent-client.js';
import { baselineGetTask, type BaselineGetTaskInput } from './get-task.js';
import { baselineSendMessage, type BaselineSendInput } from './send-message.js';

export function createBaselineActivities(registry: AgentRegistry, requestTimeoutMs?: number) {
  const deps = baselineDeps(registry, requestTimeoutMs);
  return {
    baselineSendMessage: (input: BaselineSendInput) => baselineSendMessage(deps, input),
    baselineGetTask: (input: BaselineGetTaskInput) => baselineGetTask(deps, input),
  };
}

export type BaselineActivities = ReturnType<typeof createBaselineActivities>;
export type { BaselineSendInput, BaselineGetTaskInput };
