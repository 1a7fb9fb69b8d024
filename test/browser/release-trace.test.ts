/**
 * The trace viewer (`a2a-temporal traces`: Jaeger built from the Go module proxy, serving our
 * viewer page over its query API) shows a finished release: a real worker process, the real
 * CLI's `release start` and the sample agents all export to Jaeger's OTLP port; headless
 * Chromium opens the release's trace by its workflow id and finds the agent's span nested under
 * the activity that called it. The page is saved under test/artifacts/ (and, with
 * A2A_UPDATE_SCREENSHOT=1, as the README's docs/images/release-trace.png).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@temporalio/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../agents/index.js';
import { approveUpdate, releaseAnswerUpdate } from '../../contract/index.js';
import { ensureJaeger, startJaeger, type RunningJaeger } from '../../platform/jaeger.js';
import { packageRoot } from '../../platform/paths.js';
import { tracingClientOptions } from '../../telemetry/client-interceptors.js';
import { startTracing, stopTracing } from '../../telemetry/tracing.js';
import { runCliProcess, SAMPLE_RELEASE_START } from '../helpers/cli-process.js';
import { waitForPhase, waitForQuestions } from '../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { waitFor } from '../helpers/wait.js';
import { spawnWorkerProcess, type WorkerProcess } from '../helpers/worker-process.js';
import { launchChromium } from './chromium.js';

const SCREENSHOT = join(
  packageRoot,
  process.env.A2A_UPDATE_SCREENSHOT === '1' ? 'docs/images' : 'test/artifacts',
  'release-trace.png',
);

interface JaegerSpan {
  spanID: string;
  operationName: string;
  processID: string;
  references?: Array<{ spanID: string }>;
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

const temporal = useTemporal();
let jaeger: RunningJaeger;
let samples: SampleAgents;
let worker: WorkerProcess;
let browser: Browser;
let taskQueue: string;
let agentsFile: string;

beforeAll(async () => {
  jaeger = await startJaeger((await ensureJaeger()).path);
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  Object.assign(process.env, otel);
  startTracing('a2a-temporal-agents');
  samples = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 5 });
  const file = { agents: Object.fromEntries(Object.entries(samples.agents).map(([n, a]) => [n, { url: a.baseUrl }])) };
  agentsFile = join(tmpdir(), `a2a-trace-ui-agents-${randomUUID()}.json`);
  writeFileSync(agentsFile, JSON.stringify(file));
  taskQueue = uniqueTaskQueue('trace-ui');
  worker = await spawnWorkerProcess(taskQueue, file, otel);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await worker?.kill('SIGTERM');
  await stopTracing();
  await samples?.close();
  await jaeger?.stop();
});

async function jaegerApi<T>(path: string): Promise<T> {
  const res = await fetch(`${jaeger.uiUrl}/api/${path}`);
  return ((await res.json()) as { data: T }).data;
}

describe('the trace viewer', () => {
  it("opens a finished release's trace with the agent's span under the activity's", async () => {
    const id = `release-trace-ui-${randomUUID().slice(0, 8)}`;
    const started = await runCliProcess(
      [...SAMPLE_RELEASE_START, '--mode', 'stream', '--task-queue', taskQueue, '--id', id, '--agents-file', agentsFile],
      { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint },
    );
    expect(started.code, started.stderr).toBe(0);
    const base = await temporal.client();
    const client = new Client({
      connection: base.connection,
      namespace: base.options.namespace,
      ...tracingClientOptions(),
    });
    const handle = client.workflow.getHandle(id);
    const [question] = await waitForQuestions(handle);
    await handle.executeUpdate(releaseAnswerUpdate, {
      args: [{ text: 'Node.js 24', taskId: question!.taskId, by: 'alice' }],
    });
    await waitForPhase(handle, 'awaiting-approval');
    await handle.executeUpdate(approveUpdate, { args: [{ by: 'alice' }] });
    await handle.result();

    // Jaeger has all of it: the workflows, and an agent span under each request.
    const tags = encodeURIComponent(JSON.stringify({ temporalWorkflowId: id }));
    const trace = await waitFor(
      async () => {
        const [found] = await jaegerApi<JaegerTrace[]>(`traces?service=a2a-temporal-cli&tags=${tags}&limit=1`);
        if (!found) return undefined;
        const [full] = await jaegerApi<JaegerTrace[]>(`traces/${found.traceID}`);
        const names = full!.spans.map((s) => s.operationName);
        const requests = full!.spans.filter((s) => s.operationName.startsWith('A2A '));
        const served = (s: JaegerSpan) => full!.spans.some((c) => c.references?.some((r) => r.spanID === s.spanID));
        const ready =
          names.filter((n) => n === 'RunWorkflow:delegate').length === 4 &&
          names.includes('RunWorkflow:release') &&
          requests.length > 0 &&
          requests.every(served);
        return ready ? full : undefined;
      },
      { what: `the complete trace of ${id} in Jaeger`, timeoutMs: 30_000 },
    );

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(`${jaeger.uiUrl}/?workflow=${encodeURIComponent(id)}`);
      await page.waitForSelector(`body[data-loaded="${trace.traceID}"]`, { timeout: 30_000 });
      // Every agent-side span is shown nested under an A2A request, itself under an activity.
      const chains = await page.$$eval('.row', (rows) => {
        const byId = new Map(rows.map((r) => [r.getAttribute('data-span-id'), r]));
        return rows
          .filter((r) => r.getAttribute('data-service') === 'a2a-temporal-agents')
          .map((r) => {
            const chain: Array<{ name: string; depth: number }> = [];
            for (let at: (typeof rows)[number] | undefined = r; at; at = byId.get(at.getAttribute('data-parent-id'))) {
              chain.push({ name: at.getAttribute('data-name') ?? '', depth: Number(at.getAttribute('data-depth')) });
            }
            return chain;
          });
      });
      expect(chains.length).toBeGreaterThanOrEqual(4);
      for (const [agentSpan, request, activity] of chains) {
        expect(request!.name).toMatch(/^A2A /);
        expect(activity!.name).toMatch(/^RunActivity:/);
        expect(agentSpan!.depth).toBe(request!.depth + 1);
        expect(request!.depth).toBe(activity!.depth + 1);
      }
      expect(chains.every((chain) => chain.at(-1)!.name === 'StartWorkflow:release')).toBe(true);
      // Show one request's attributes, as a user would click it.
      await page.locator('.row[data-name="A2A SendStreamingMessage"]').first().locator('.label').click();
      await page.waitForSelector('.detail');
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await page.close();
    }
  });
});
