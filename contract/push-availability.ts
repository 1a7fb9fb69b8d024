/**
 * Whether mode `push` can follow an agent's task: checked before anything is sent, by the
 * workflow on an agent it resolved itself and by push's first send on one it resolves.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ResolvedAgent } from './delegation-types.js';
import { FailureType } from './failure-types.js';

/**
 * Why mode `push` cannot follow this agent's task, as a non-retryable failure, or undefined when
 * it can. `autoMode` is `push` exactly when the card declares push and the resolving worker has a
 * webhook receiver (see activities/resolve-agent.ts).
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
