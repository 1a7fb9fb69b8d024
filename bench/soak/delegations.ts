/**
 * The soak's delegations: one per way a long task is followed (a stream turn that lasts the whole
 * task, a stream answer turn, polling after two questions, push after one), each to a sample
 * compatibility agent of its own so that its counters are its own. The agent works for the soak's
 * duration: silent for the first half (`workDelayMs`), then the report's three chunks a quarter
 * apart (`chunkDelayMs`), so chunks arrive before and after the events in the second half.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { SAMPLE_MANIFEST, startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import type { Part } from '../../a2a/index.js';
import {
  answerUpdate,
  delegationStatusQuery,
  type DelegateInput,
  type PendingQuestion,
  type TrackingMode,
} from '../../contract/index.js';
import { TASK_QUEUE } from './stack.js';

export interface SoakSpec {
  label: string;
  mode: Exclude<TrackingMode, 'auto'>;
  /** Without "Node.js <n>" in the text the agent asks for the version first. */
  text: string;
  scenario?: 'second-question';
  /** What the soak answers, question after question. */
  answers: string[];
}

const SERVICE_TEXT = 'Check the dependencies of payment-service for the upgrade from 1.4.0 to 2.0.0';

export const SOAK_SPECS: SoakSpec[] = [
  { label: 'stream-first-turn', mode: 'stream', text: `${SERVICE_TEXT} on Node.js 24.`, answers: [] },
  { label: 'stream-answered', mode: 'stream', text: `${SERVICE_TEXT}.`, answers: ['Node.js 24'] },
  {
    label: 'poll-two-questions',
    mode: 'poll',
    text: `${SERVICE_TEXT}.`,
    scenario: 'second-question',
    answers: ['Node.js 24', 'pnpm'],
  },
  { label: 'push-answered', mode: 'push', text: `${SERVICE_TEXT}.`, answers: ['Node.js 22'] },
];

export interface SoakDelegation {
  spec: SoakSpec;
  agent: RunningAgent;
  handle: WorkflowHandle;
  firstRunId: string;
  /** When the last answer was accepted (or the start, without questions): the remote work starts then. */
  workingSince: number;
}

/** Starts the sample agent of each spec, by label. */
export async function startSoakAgents(): Promise<Record<string, RunningAgent>> {
  const agents = await Promise.all(SOAK_SPECS.map(() => startDependencyCompatAgent({ port: 0 })));
  return Object.fromEntries(SOAK_SPECS.map((spec, i) => [spec.label, agents[i]!]));
}

/**
 * Starts the delegation to its own agent, named as the worker's agents file names it (agents
 * named by URL may not reach loopback); the remote task works `workMs` once its questions are answered.
 */
export async function startSoakDelegation(
  client: Client,
  spec: SoakSpec,
  agent: RunningAgent,
  workMs: number,
): Promise<SoakDelegation> {
  const input: DelegateInput = {
    agent: spec.label,
    label: spec.label,
    mode: spec.mode,
    text: spec.text,
    parts: [{ data: SAMPLE_MANIFEST, mediaType: 'application/json' } as Part],
    metadata: {
      workDelayMs: Math.round(workMs / 2),
      chunkDelayMs: Math.round(workMs / 4),
      ...(spec.scenario ? { scenario: spec.scenario } : {}),
    },
    // No `tracking`: the defaults (10-minute rounds, 5 s heartbeats) are what the soak is about.
  };
  const handle = await client.workflow.start('delegate', {
    taskQueue: TASK_QUEUE,
    workflowId: `soak-${spec.label}-${Date.now().toString(36)}`,
    args: [input],
  });
  return { spec, agent, handle, firstRunId: handle.firstExecutionRunId, workingSince: Date.now() };
}

/** Answers the delegation's questions in order, each naming the question it answers (as the CLI does). */
export async function answerQuestions(delegation: SoakDelegation, log: (line: string) => void): Promise<void> {
  let previous: PendingQuestion | undefined;
  for (const text of delegation.spec.answers) {
    const question = await nextQuestion(delegation.handle, previous);
    await delegation.handle.executeUpdate(answerUpdate, {
      args: [{ text, taskId: question.taskId, questionId: question.id }],
    });
    log(`${delegation.spec.label}: answered "${question.text}" with "${text}"`);
    previous = question;
  }
  delegation.workingSince = Date.now();
}

async function nextQuestion(handle: WorkflowHandle, after: PendingQuestion | undefined): Promise<PendingQuestion> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const status = await handle.query(delegationStatusQuery);
    const question = status.phase === 'waiting-for-input' ? status.question : undefined;
    if (question && question.messageId !== after?.messageId) return question;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${handle.workflowId} asked no question within 2 minutes`);
}
