/**
 * Push mode's workflow-side pieces without I/O: the notification flag the `taskUpdated` signal
 * raises, and the check that an explicit `push` can work with the agent resolved.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { TaskStatus } from '../a2a/index.js';
import type { ResolvedAgent, StatusKey, TaskUpdatedNotice } from './delegation-types.js';
import { FailureType } from './failure-types.js';

/**
 * Whether a verified delivery for the task being followed arrived since the last read. A flag,
 * not a queue: any number of notices before the next read cause one read.
 */
export class PushNotices {
  private notified = false;

  /**
   * Raises the flag for a notice about `taskId`. Ignored: notices about another task, and those
   * showing the question already answered (`handled`, e.g. the task snapshot an agent sends when
   * the answer arrives), which could only lead to a read that decides nothing.
   */
  receive(notice: TaskUpdatedNotice, taskId: string | undefined, handled: StatusKey | undefined): boolean {
    if (!taskId || notice?.taskId !== taskId) return false;
    if (
      handled &&
      notice.messageId !== undefined &&
      notice.state === handled.state &&
      notice.messageId === handled.messageId
    )
      return false;
    this.notified = true;
    return true;
  }

  get pending(): boolean {
    return this.notified;
  }

  /** Called right before each read, so a delivery during the read causes another one. */
  clear(): void {
    this.notified = false;
  }
}

/**
 * True when the task the agent returned for our answer is still at work (or still shows the
 * question just answered): nothing to decide yet, so the delegation can wait for a delivery
 * without reading first.
 */
export function stillOnIt(status: TaskStatus, handled: StatusKey | undefined): boolean {
  if (status.state === 'TASK_STATE_SUBMITTED' || status.state === 'TASK_STATE_WORKING') return true;
  const messageId = status.message?.messageId;
  return (
    handled !== undefined &&
    messageId !== undefined &&
    status.state === handled.state &&
    messageId === handled.messageId
  );
}

/**
 * Why mode `push` cannot follow this agent's task, as a non-retryable failure, or undefined when
 * it can. Checked before anything is sent. `autoMode` is `push` exactly when the card declares push
 * and the resolving worker has a webhook receiver (see resolve-agent.ts).
 */
export function pushUnavailable(resolved: ResolvedAgent, agent: string): ApplicationFailure | undefined {
  if (!resolved.card.capabilities.pushNotifications) {
    return ApplicationFailure.nonRetryable(
      `Agent "${agent}" does not declare push notifications in its card (capabilities.pushNotifications), so mode "push" cannot follow its task; nothing was sent. Delegate with mode "stream", "poll" or "auto".`,
      FailureType.pushUnavailable,
    );
  }
  if (resolved.autoMode !== 'push') {
    return ApplicationFailure.nonRetryable(
      `The worker has no webhook receiver configured, so agent "${agent}" cannot push its task's updates; nothing was sent. Set A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET for the worker and run the receiver (a2a-temporal webhook, or worker --webhook-port), or delegate with mode "stream" or "poll".`,
      FailureType.pushUnavailable,
    );
  }
  return undefined;
}
