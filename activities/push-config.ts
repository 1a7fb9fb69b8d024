/**
 * Push mode's config lifecycle at the agent: register the webhook for one task (with the
 * per-delegation credential, derived here from the receiver secret) and delete it when the task
 * ends. Push mode's GetTask does both as part of a read when it can (see get-task.ts). Neither the
 * credential nor the secret leaves these activities.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { TaskNotFoundError } from '../a2a/errors.js';
import type { AgentRef } from '../contract/delegation-types.js';
import { FailureType } from '../contract/failure-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { whileHeartbeating } from './heartbeat.js';
import { pushCredential, pushTraceTag, type TraceCarrier } from './push-credential.js';
import { pushUrl } from './push-url.js';

export interface PushConfigInput {
  agent: AgentRef;
  taskId: string;
  /** Chosen by the workflow, so a retried registration replaces its own config instead of adding one. */
  configId: string;
}

/** What the workflow learns from a registration: the id only, never the credential. */
export interface PushRegistration {
  configId: string;
}

/**
 * `CreateTaskPushNotificationConfig` for `taskId`: the agent POSTs the task's updates to the
 * receiver with `Authorization: Bearer <credential>` (and 0.3 agents that only know `token` with
 * `X-A2A-Notification-Token`).
 */
export async function registerPushConfig(
  deps: ActivityDeps,
  { agent, taskId, configId }: PushConfigInput,
): Promise<PushRegistration> {
  const webhook = deps.webhook;
  if (!webhook) {
    throw ApplicationFailure.nonRetryable(
      `This worker has no webhook receiver configured, so agent "${agent.name}" cannot push the updates of task ${taskId}: set A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET for the worker and run the receiver (a2a-temporal webhook, or worker --webhook-port), or delegate with mode "stream" or "poll".`,
      FailureType.pushUnavailable,
    );
  }
  const context = Context.current();
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId) {
    throw ApplicationFailure.nonRetryable(
      'registerPushConfig runs only on behalf of a workflow: the webhook URL names the workflow to notify.',
      FailureType.pushUnavailable,
    );
  }
  const binding = { workflowId, taskId, configId };
  let credential: string;
  try {
    credential = pushCredential(webhook.secret, binding);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, FailureType.pushUnavailable);
  }
  const carrier = traceCarrier(deps.telemetry?.traceQuery?.());
  const url = pushUrl(
    webhook.publicUrl,
    binding,
    carrier && { carrier, tag: pushTraceTag(webhook.secret, binding, carrier) },
  );
  try {
    return await asActivity(agent.name, () =>
      whileHeartbeating(async () => {
        const created = await (
          await clientFor(deps, agent)
        ).createPushConfig(
          {
            taskId,
            id: configId,
            url,
            token: credential,
            authentication: { scheme: 'Bearer', credentials: credential },
          },
          { signal: context.cancellationSignal },
        );
        return { configId: created.id || configId };
      }),
    );
  } catch (err) {
    throw redacted(err, credential);
  }
}

/** This run's trace context (deliveries link back to it), when the registration is traced. */
function traceCarrier(query: Record<string, string> | undefined): TraceCarrier | undefined {
  const traceparent = query?.traceparent;
  if (!traceparent) return undefined;
  return { traceparent, ...(query.tracestate ? { tracestate: query.tracestate } : {}) };
}

/** `DeleteTaskPushNotificationConfig`, idempotent: a config or task the agent no longer knows is fine. */
export async function deletePushConfig(
  deps: ActivityDeps,
  { agent, taskId, configId }: PushConfigInput,
): Promise<void> {
  return asActivity(agent.name, () =>
    whileHeartbeating(async () => {
      try {
        await (
          await clientFor(deps, agent)
        ).deletePushConfig({ taskId, id: configId }, { signal: Context.current().cancellationSignal });
      } catch (err) {
        if (err instanceof TaskNotFoundError) return;
        throw err;
      }
    }),
  );
}

/**
 * An agent's error may quote what we sent it (an invalid echo of the config, say); failures
 * are written to history, so the credential is cut out of every message in the chain.
 */
function redacted(err: unknown, credential: string): unknown {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e.message.includes(credential)) e.message = e.message.split(credential).join('[redacted]');
    if (e.stack?.includes(credential)) e.stack = e.stack.split(credential).join('[redacted]');
  }
  return err;
}
