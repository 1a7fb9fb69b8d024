/**
 * Push mode's first steps after a send, in the send's own activity: read the task once and, when
 * it still works, register the push config for it and read again (get-task.ts). That read comes
 * after the registration, so nothing the agent did before it can be missed; a task that decided by
 * the first read (an agent that works fast) needs no config and no delivery at all, and its
 * agent sends none (a config lasts until its task ends: nothing to give back). Each step is best
 * effort: one that fails leaves the workflow to do it as it would without this (the registration
 * with its first read, which replaces a config of the same id; a read as usual).
 */
import { CancelledFailure, Context, log } from '@temporalio/activity';
import type { AgentRef } from '../contract/delegation-types.js';
import type { ActivityDeps } from './deps.js';
import { getTask, type GetTaskOutcome } from './get-task.js';
import { registerPushConfig } from './push-config.js';
import { sentProgress, type SendMessageInput, type SendOutcome } from './send-message.js';
import { ENDED_PHASES, needsPushConfig } from '../contract/track-phase.js';

/** What push mode asks of its send. */
export type PushFollowUp =
  /** No config is held yet: register this one for the task the send returns (unless it ended), then read it. */
  | { register: { configId: string } }
  /** A config is held for `taskId`: read that task once when the send leaves it running. */
  | { registered: { taskId: string; configId: string } };

/** The send's outcome with what push mode's follow-up did (`pushConfigRegistered`, `read`). */
export async function followUpPush(
  deps: ActivityDeps,
  input: SendMessageInput & { agent: AgentRef; push: PushFollowUp },
  sent: Extract<SendOutcome, { kind: 'task' }>,
): Promise<SendOutcome> {
  const { push, agent } = input;
  const { task, decided } = sent;
  if (decided && ENDED_PHASES.has(decided.phase)) return sent;
  const configId =
    'register' in push
      ? push.register.configId
      : push.registered.taskId === task.id
        ? push.registered.configId
        : undefined;
  if (!configId) return sent; // the agent answered on another task: the workflow registers for it
  try {
    if (decided) {
      // A question for us: nothing to follow until it is answered (the answer's send registers).
      // Out-of-band authentication: nothing reads until a delivery says it arrived, so the config
      // is registered now, alone.
      if (!('register' in push) || !needsPushConfig(decided.phase)) return sent;
      await registerPushConfig(deps, { agent, taskId: task.id, configId });
      return { ...sent, pushConfigRegistered: configId };
    }
    const read: GetTaskOutcome = await getTask(deps, {
      agent,
      taskId: task.id,
      contextId: input.message.contextId,
      handled: input.handled,
      ...('register' in push ? { register: { configId } } : {}),
      pushConfigId: configId,
    });
    const { pushConfigRegistered, ...outcome } = read;
    // The read carries the task as it stands: the send's copy only names it (history is payload).
    const named = {
      id: task.id,
      ...(task.contextId ? { contextId: task.contextId } : {}),
      status: { state: task.status.state },
    };
    return { ...sent, task: named, read: outcome, ...(pushConfigRegistered ? { pushConfigRegistered } : {}) };
  } catch (err) {
    if (Context.current().cancellationSignal.aborted) {
      // The registration may have reached the agent: the workflow deletes the config it chose.
      const registered = 'register' in push ? configId : undefined;
      throw new CancelledFailure('the activity was cancelled', [sentProgress(task, registered)]);
    }
    log.warn('push mode could not register or read with the send; the workflow does it', {
      taskId: task.id,
      error: String(err),
    });
    return sent;
  }
}
