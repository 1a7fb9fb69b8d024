/**
 * The Temporal Web UI is the project's web page: headless Chromium (Debian's package, driven by
 * playwright-core; `npm run test:ui` runs scripts/ensure-chromium.sh first) opens the page of a
 * release that waits for input and finds the agent's question in its current details, and the
 * workflow list filtered by the release's and the delegation's search attributes. The page with
 * the question is saved under test/artifacts/ (and, with A2A_UPDATE_SCREENSHOT=1, as the README's
 * docs/images/release-waiting-for-input.png, so ordinary runs leave the repository unchanged).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../agents/index.js';
import { packageRoot } from '../../platform/paths.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { approveUpdate, releaseAnswerUpdate, type ReleaseResult } from '../../contract/index.js';
import { RELEASE_PHASE, RELEASE_SERVICE } from '../../contract/search-attributes.js';
import { registryOf } from '../helpers/delegations.js';
import { releaseInput, waitForPhase, waitForQuestions } from '../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { waitFor } from '../helpers/wait.js';
import { launchChromium } from './chromium.js';

const QUESTION = 'Which Node.js version should payment-service target? (for example: Node.js 24)';
const SCREENSHOT = join(
  packageRoot,
  process.env.A2A_UPDATE_SCREENSHOT === '1' ? 'docs/images' : 'test/artifacts',
  'release-waiting-for-input.png',
);
/** The iframes in which the UI renders a workflow's user metadata (markdown) on its User Metadata tab. */
const SUMMARY = 'iframe#user-metadata-summary';
const CURRENT_DETAILS = 'iframe#user-metadata-current-details';
/** How long the UI may take to show what the server already has (it polls on its own). */
const UI_TIMEOUT_MS = 30_000;

const temporal = useTemporal();
let samples: SampleAgents;
let browser: Browser;

beforeAll(async () => {
  samples = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 5 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await samples?.close();
});

describe('the Temporal Web UI', () => {
  it("shows a waiting release's question and finds it by its search attributes", async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('ui');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf(samples.agents) })],
    });
    const result = await worker.runUntil(async () => {
      const handle = await startReleaseLikeTheCli(client, taskQueue);
      try {
        await waitForPhase(handle, 'waiting-for-input');
        const [question] = await waitForQuestions(handle);
        expect(question!.text).toBe(QUESTION);

        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        try {
          await showsTheQuestion(page, handle.workflowId);
          await listFinds(client, page, `ReleasePhase="waiting-for-input"`, handle.workflowId);
          await listFinds(
            client,
            page,
            `A2aTaskState="TASK_STATE_INPUT_REQUIRED" AND A2aTaskId="${question!.taskId}"`,
            `${handle.workflowId}/compat`,
          );
        } finally {
          await page.close();
        }

        await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] });
        await waitForPhase(handle, 'awaiting-approval');
        await handle.executeUpdate(approveUpdate, { args: [{ by: 'ui-test' }] });
        return (await handle.result()) as ReleaseResult;
      } catch (err) {
        await handle.terminate('the UI test failed').catch(() => undefined);
        throw err;
      }
    });
    expect(result.outcome).toBe('approved');
  });
});

/** The release page, User Metadata tab: summary, and the question in the current details. */
async function showsTheQuestion(page: Page, workflowId: string): Promise<void> {
  await page.goto(`${temporal.server.uiUrl}/namespaces/default/workflows/${encodeURIComponent(workflowId)}`);
  await page.getByTestId('user-metadata-tab').click();
  const details = page.frameLocator(CURRENT_DETAILS);
  await expectVisible(details.getByText(QUESTION));
  await expectVisible(details.getByText('phase waiting-for-input'));
  await expectVisible(page.frameLocator(SUMMARY).getByText('Release payment-service 1.4.0 → 2.0.0', { exact: true }));

  // The workflow page scrolls inside its own container: grow the viewport to the bottom of the
  // current details so the screenshot holds all of them.
  const box = await page.locator(CURRENT_DETAILS).boundingBox();
  await page.setViewportSize({
    width: 1280,
    height: Math.min(2400, Math.max(800, Math.ceil((box?.y ?? 0) + (box?.height ?? 0) + 32))),
  });
  await expectVisible(details.getByText(QUESTION));
  mkdirSync(dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The workflow list with a query in its URL shows `workflowId` (once the server's visibility has it). */
async function listFinds(client: Client, page: Page, query: string, workflowId: string): Promise<void> {
  await waitFor(
    async () => {
      for await (const wf of client.workflow.list({ query })) if (wf.workflowId === workflowId) return true;
      return false;
    },
    { what: `${workflowId} in the list for ${query}` },
  );
  await page.goto(`${temporal.server.uiUrl}/namespaces/default/workflows?query=${encodeURIComponent(query)}`);
  await expectVisible(page.getByRole('link', { name: workflowId, exact: true }));
}

async function expectVisible(locator: ReturnType<Page['getByText']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
  expect(await locator.isVisible()).toBe(true);
}

/** Started as `a2a-temporal release start` starts it: with the static summary and search attributes. */
function startReleaseLikeTheCli(client: Client, taskQueue: string): Promise<WorkflowHandle> {
  const input = releaseInput();
  return client.workflow.start('release', {
    taskQueue,
    workflowId: `release-${input.service}-${input.toVersion}-${taskQueue.slice(-6)}`,
    args: [input],
    staticSummary: `Release ${input.service} ${input.fromVersion} → ${input.toVersion}`,
    staticDetails: `**Release ${input.service} ${input.fromVersion} → ${input.toVersion}**\n\nAnalysis: \`compat\` · checks: \`changelog\`, \`license\``,
    typedSearchAttributes: [
      { key: RELEASE_SERVICE, value: input.service },
      { key: RELEASE_PHASE, value: 'analysing' },
    ],
  });
}

/** $CHROMIUM_PATH, /usr/bin/chromium or `chromium` on PATH (scripts/ensure-chromium.sh installs it). */
