import { Context, log } from '@temporalio/activity';
import type { AgentRef, StatusKey } from '../contract/delegation-types.js';
import { clientFor, taskViewOptions, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withinPayloadLimit } from './payload-limit.js';
import { ENDED_PHASES, phaseOf, TaskView, type TrackOutcome } from './task-outcome.js';
import { whileHeartbeating } from './heartbeat.js';
import { READ_AS_IT_ARRIVES_BYTES, withTaskRead } from './task-read.js';
import { deletePushConfig, registerPushConfig } from './push-config.js';
import { withPushIoUnderWay } from './push-io-under-way.js';

export interface GetTaskInput {
  agent: AgentRef;
  taskId: string;
  /** An interrupted status already answered: seeing it again is not a new question. */
  handled?: StatusKey;
  /** The delegation's context: a task of another context is refused (no cross-talk). */
  contextId?: string;
  /**
   * Push mode's first read after a send: registers this push config for the task first, then
   * reads, in that order (nothing the agent does between them is missed), in one activity task
   * instead of two. A retry registers the same config id again, which replaces it.
   */
  register?: { configId: string };
  /** Deletes this push config when the read finds the task ended: the delegation's last read gives it back itself. */
  unregisterWhenEnded?: { configId: string };
}

/**
 * A read, the push config it registered first (`register`: its id, so the history names the
 * config the agent holds; the credential is derived from it and never recorded), and whether it
 * deleted the push config (`unregisterWhenEnded`).
 */
export type GetTaskOutcome = TrackOutcome & { pushConfigRegistered?: string; pushConfigDeleted?: true };

/**
 * One `GetTask`: push mode's read of the authoritative state after a notification (or the
 * safety-net timer). Decides like the tracking activity does; a task still running comes back
 * without its artifacts, so each wake-up adds little to history (the decided read carries them).
 */
export function getTask(deps: ActivityDeps, input: GetTaskInput): Promise<GetTaskOutcome> {
  const configId = input.register?.configId ?? input.unregisterWhenEnded?.configId;
  return withPushIoUnderWay(configId, () => readForPush(deps, input));
}

async function readForPush(deps: ActivityDeps, input: GetTaskInput): Promise<GetTaskOutcome> {
  const config = (configId: string) => ({ agent: input.agent, taskId: input.taskId, configId });
  if (input.register) await registerPushConfig(deps, config(input.register.configId));
  const read = await readTask(deps, input);
  const outcome: GetTaskOutcome = input.register ? { ...read, pushConfigRegistered: input.register.configId } : read;
  if (!input.unregisterWhenEnded || !ENDED_PHASES.has(outcome.phase)) return outcome;
  try {
    await deletePushConfig(deps, config(input.unregisterWhenEnded.configId));
    return { ...outcome, pushConfigDeleted: true };
  } catch (err) {
    // The workflow deletes it in an activity of its own (with retries) when the delegation ends.
    log.warn('could not delete the push config with the last read', { taskId: input.taskId, error: String(err) });
    return outcome;
  }
}

function readTask(deps: ActivityDeps, input: GetTaskInput): Promise<TrackOutcome> {
  return asActivity(input.agent.name, () =>
    whileHeartbeating(async () => {
      const client = await clientFor(deps, input.agent);
      const expect = input.contextId ? { contextId: input.contextId } : {};
      const view = new TaskView(input.taskId, undefined, taskViewOptions(deps, input.agent, { expect }));
      const signal = Context.current().cancellationSignal;
      const fileBytes = deps.artifacts
        ? {
            maxBytes: deps.artifacts.maxStoredBytes,
            maxTextBytes: view.budget.max,
            fromBytes: READ_AS_IT_ARRIVES_BYTES,
          }
        : undefined;
      return withTaskRead(client, { id: input.taskId, historyLength: 0 }, { signal }, fileBytes, async (task) => {
        const phase = phaseOf(task.status, input.handled);
        if (!phase) {
          view.snapshot(task); // checked and counted; its files are read when it has decided
          return { ...view.outcome('running'), artifacts: [] };
        }
        await view.read(task);
        const outcome = await view.result(phase);
        return withinPayloadLimit(outcome, input.agent.name, `task ${input.taskId}`, deps.offloadsPayloads);
      });
    }),
  );
}
