/**
 * `release_ms`: the release coordinator with three agents (compat, changelog, license: the
 * sample agents, no artificial delays), one release at a time, answered by script: start, the
 * compat agent's question (read with the `status` query), the answer (update), the release
 * waiting for approval, the approval (update), the result. p50 of N runs after a warm-up. The
 * span split (time between the workflow and its activities) is not measured here: see
 * bench/README.md.
 */
import type { Client } from '@temporalio/client';
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
  try {
    for (let i = 0; i < warmup + count; i++) {
      const started = performance.now();
      await scriptedRelease(env.client, taskQueue);
      if (i >= warmup) samples.push(performance.now() - started);
      if ((i + 1) % 10 === 0) log(`release: ${i + 1}/${warmup + count}`);
    }
  } finally {
    await worker.stop();
    await Promise.all([changelog.close(), license.close()]);
  }
  return { release_ms: summarize(samples), poll_interval_ms: POLL_MS };
}

async function scriptedRelease(client: Client, taskQueue: string): Promise<void> {
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
}
