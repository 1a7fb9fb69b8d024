/**
 * One delegation through a Temporal variant, as a client drives it: start the workflow, learn
 * that it waits for input (through the figure's {@link AnswerDelivery}), signal the answer,
 * await the result, and check it is the completed report.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { artifactText, type Artifact } from '../../a2a/index.js';
import { A2A_AGENT, answerSignal } from '../../contract/index.js';
import type { AnswerDelivery } from '../delivery/answer-delivery.js';
import { AGENT_NAME, ANSWER_TEXT, delegationInput, NO_DELAY, REPORT_MARKER, type RemoteDelays } from '../scenario.js';
import { workflowOf, type TemporalVariant } from './variant.js';

export interface TemporalRun {
  client: Client;
  taskQueue: string;
  delivery: AnswerDelivery;
}

let sequence = 0;

/** Starts the variant's workflow (not waiting for anything). */
export function startDelegation(
  run: TemporalRun,
  variant: TemporalVariant,
  delays: RemoteDelays = NO_DELAY,
): Promise<WorkflowHandle> {
  const { workflowType, mode } = workflowOf(variant);
  return run.client.workflow.start(workflowType, {
    taskQueue: run.taskQueue,
    workflowId: `bench-${variant}-${process.pid}-${++sequence}`,
    args: [delegationInput(mode, delays)],
    // As `a2a-temporal delegate` starts one: the agent known at start costs the workflow no upsert.
    typedSearchAttributes: [{ key: A2A_AGENT, value: AGENT_NAME }],
  });
}

/** Answers the delegation's question and waits for its checked result. */
export async function answerAndFinish(run: TemporalRun, handle: WorkflowHandle): Promise<void> {
  const result = handle.result() as Promise<{ state?: string; artifacts: Artifact[] }>;
  const ended = result.then((r) => {
    throw new Error(`${handle.workflowId} ended without asking for input (state ${r.state})`);
  });
  await Promise.race([run.delivery.awaitQuestion(handle), ended]);
  ended.catch(() => {}); // the race is over; the result is checked below
  await handle.signal(answerSignal, { text: ANSWER_TEXT });
  check(handle.workflowId, await result);
}

/** A whole delegation: start, answer, result. */
export async function temporalDelegation(
  run: TemporalRun,
  variant: TemporalVariant,
  delays: RemoteDelays = NO_DELAY,
): Promise<WorkflowHandle> {
  const handle = await startDelegation(run, variant, delays);
  await answerAndFinish(run, handle);
  return handle;
}

function check(workflowId: string, result: { state?: string; artifacts: Artifact[] }): void {
  const report = result.artifacts.map(artifactText).join('\n');
  if (result.state !== 'TASK_STATE_COMPLETED' || !report.includes(REPORT_MARKER)) {
    throw new Error(
      `${workflowId}: expected a completed report, got state ${result.state} with ${result.artifacts.length} artifacts`,
    );
  }
}

/** One `emptyWorkflow` (bench/workflows/empty-workflow.ts), started and awaited. */
export async function emptyWorkflowRun(run: Pick<TemporalRun, 'client' | 'taskQueue'>): Promise<void> {
  await run.client.workflow.execute('emptyWorkflow', {
    taskQueue: run.taskQueue,
    workflowId: `bench-empty-${process.pid}-${++sequence}`,
  });
}
