/**
 * `release_ms`: the release coordinator with three agents (compat, changelog, license: the
 * sample agents, no artificial delays), one release at a time, answered by script: start, the
 * compat agent's question (read with the `status` query), the answer (update), the release
 * waiting for approval, the approval (update), the result. p50 of N runs after a warm-up.
 *
 * Beside it, where each activity's time went, from the histories of the release and its child
 * delegations (the intervals the tracing's spans cover): from `ActivityTaskScheduled` to the
 * workflow task that takes the result (`StartActivity`), of which `ActivityTaskStarted` →
 * `ActivityTaskCompleted` is the activity at work (`RunActivity`); the rest is spent between the
 * workflow and its activities (the task queues, the server, the worker handing tasks over).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { startChangelogAgent, startLicenseAgent } from '../../agents/index.js';
import { approveUpdate, releaseAnswerUpdate, releaseStatusQuery, type ReleaseResult } from '../../contract/index.js';
import { sampleReleaseInput } from '../../client/sample-release.js';
import { waitFor } from '../../test/helpers/wait.js';
import type { BenchEnv } from '../bench-env.js';
import { ANSWER_TEXT } from '../scenario.js';
import { summarize, type Summary } from '../stats.js';

export interface ReleaseFigures {
  /** Start → result of a whole release, the script's answer and approval included. */
  release_ms: Summary;
  /**
   * The activities of the measured releases and their delegations: the time from scheduling to
   * the workflow task that takes the result, the part of it the activity ran, and the share
   * spent between the workflow and its activities (1 - run / scheduled-to-taken).
   */
  activities: { count: number; scheduled_to_taken_ms: Summary; run_ms: Summary; between_share: number };
  /** How often the script reads the `status` query while it waits for a question or the approval. */
  poll_interval_ms: number;
}

const POLL_MS = 5;

let sequence = 0;

export async function measureRelease(
  env: BenchEnv,
  { warmup, count, log }: { warmup: number; count: number; log: (line: string) => void },
): Promise<ReleaseFigures> {
  const [changelog, license] = await Promise.all([
    startChangelogAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 }),
    startLicenseAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 }),
  ]);
  const taskQueue = `bench-release-${process.pid}`;
  const worker = await env.spawnWorker(taskQueue, {
    BENCH_EXTRA_AGENTS: JSON.stringify({ changelog: changelog.baseUrl, license: license.baseUrl }),
  });
  const samples: number[] = [];
  const spans: ActivitySpan[] = [];
  try {
    for (let i = 0; i < warmup + count; i++) {
      const started = performance.now();
      const handle = await scriptedRelease(env.client, taskQueue);
      if (i < warmup) continue;
      samples.push(performance.now() - started);
      spans.push(...(await activitySpans(env.client, handle)));
      if ((i + 1) % 10 === 0) log(`release: ${i + 1}/${warmup + count}`);
    }
  } finally {
    await worker.stop();
    await Promise.all([changelog.close(), license.close()]);
  }
  const total = (pick: (s: ActivitySpan) => number) => spans.reduce((sum, span) => sum + pick(span), 0);
  return {
    release_ms: summarize(samples),
    activities: {
      count: spans.length,
      scheduled_to_taken_ms: summarize(spans.map((s) => s.takenMs)),
      run_ms: summarize(spans.map((s) => s.runMs)),
      between_share: Math.round((1 - total((s) => s.runMs) / total((s) => s.takenMs)) * 1000) / 1000,
    },
    poll_interval_ms: POLL_MS,
  };
}

interface ActivitySpan {
  /** ActivityTaskScheduled → the WorkflowTaskStarted that takes its result. */
  takenMs: number;
  /** ActivityTaskStarted → ActivityTaskCompleted. */
  runMs: number;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The completed activities of a release and of its child delegations, from their histories. */
async function activitySpans(client: Client, release: WorkflowHandle): Promise<ActivitySpan[]> {
  const releaseEvents = (await release.fetchHistory()).events ?? [];
  const children = releaseEvents.flatMap((e) => {
    const id = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    return id ? [id] : [];
  });
  const histories = [
    releaseEvents,
    ...(await Promise.all(
      children.map(async (id) => (await client.workflow.getHandle(id).fetchHistory()).events ?? []),
    )),
  ];
  return histories.flatMap(spansOf);
}

function spansOf(events: HistoryEvent[]): ActivitySpan[] {
  const at = (e: HistoryEvent) => Number(e.eventTime?.seconds ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
  const byId = new Map(events.map((e) => [Number(e.eventId), e]));
  const spans: ActivitySpan[] = [];
  events.forEach((e, i) => {
    const done = e.activityTaskCompletedEventAttributes;
    if (!done) return;
    const scheduled = byId.get(Number(done.scheduledEventId));
    const started = byId.get(Number(done.startedEventId));
    const taken = events.slice(i + 1).find((n) => n.workflowTaskStartedEventAttributes);
    if (!scheduled || !started || !taken) return;
    spans.push({ takenMs: at(taken) - at(scheduled), runMs: at(e) - at(started) });
  });
  return spans;
}

async function scriptedRelease(client: Client, taskQueue: string): Promise<WorkflowHandle> {
  const handle = await client.workflow.start('release', {
    taskQueue,
    workflowId: `bench-release-${process.pid}-${++sequence}`,
    args: [sampleReleaseInput()],
  });
  const status = () => handle.query(releaseStatusQuery);
  const wait = { intervalMs: POLL_MS, timeoutMs: 60_000 };
  await waitFor(async () => (await status()).questions.length > 0, { ...wait, what: 'the release question' });
  await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: ANSWER_TEXT }] });
  await waitFor(async () => (await status()).phase === 'awaiting-approval', { ...wait, what: 'awaiting approval' });
  await handle.executeUpdate(approveUpdate, { args: [{ by: 'bench' }] });
  const result = (await handle.result()) as ReleaseResult;
  if (result.outcome !== 'approved') throw new Error(`${handle.workflowId}: outcome ${result.outcome}`);
  return handle;
}
