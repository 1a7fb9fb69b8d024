import { Context } from '@temporalio/activity';
import type { AgentRef, StatusKey } from '../contract/delegation-types.js';
import { clientFor, taskViewOptions, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withinPayloadLimit } from './payload-limit.js';
import { ENDED_PHASES, needsPushConfig } from '../contract/track-phase.js';
import { phaseOf, TaskView, type TrackOutcome } from './task-outcome.js';
import { whileHeartbeating } from './heartbeat.js';
import { READ_AS_IT_ARRIVES_BYTES, withTaskRead } from './task-read.js';
import { registerPushConfig } from './push-config.js';
import { withPushIo } from './push-local-state.js';

export interface GetTaskInput {
  agent: AgentRef;
  taskId: string;
  /** An interrupted status already answered: seeing it again is not a new question. */
  handled?: StatusKey;
  /** The delegation's context: a task of another context is refused (no cross-talk). */
  contextId?: string;
  /**
   * Push mode's first read after a send: reads the task, and when it still works (or waits for
   * out-of-band authentication, which a delivery announces) registers this push config for it and
   * reads again, in that order (nothing the agent does between them is missed), in one activity
   * task. A task that has decided by the first read (asks for input, or ended) needs no config: its
   * agent delivers nothing, and the send of the answer registers one if the task then works. A
   * retry registers the same config id again, which replaces it.
   */
  register?: { configId: string };
  /** Push mode: the config held for the task (its deliveries wait while this read runs; see push-local-state.ts). */
  pushConfigId?: string;
}

/**
 * A read, and the push config it registered first (`register`: its id, so the history names the
 * config the agent holds; the credential is derived from it and never recorded).
 */
export type GetTaskOutcome = TrackOutcome & { pushConfigRegistered?: string };

/**
 * One `GetTask`: push mode's read of the authoritative state after a notification (or the
 * safety-net timer). Decides like the tracking activity does; a task still running comes back
 * without its artifacts, so each wake-up adds little to history (the decided read carries them).
 */
export function getTask(deps: ActivityDeps, input: GetTaskInput): Promise<GetTaskOutcome> {
  const { register } = input;
  return withPushIo(
    register?.configId ?? input.pushConfigId,
    async (): Promise<GetTaskOutcome> => {
      const read = await readTask(deps, input);
      if (!register || !needsPushConfig(read.phase)) return read;
      await registerPushConfig(deps, { agent: input.agent, taskId: input.taskId, configId: register.configId });
      return { ...(await readTask(deps, input)), pushConfigRegistered: register.configId };
    },
    (outcome) => ENDED_PHASES.has(outcome.phase),
  );
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
