/**
 * The Temporal Web UI with the codec server (issue 22): the embedded server started as `npm run
 * demo` starts it, with `--ui-codec-endpoint` pointing at a codec server of this test (token in
 * the path, a blob store of its own), and a worker on the same store. A finished delegation to
 * the changelog agent returns its changelog as text and as a stored file (CHANGELOG.md); its page
 * in headless Chromium shows the text and a link to the file, whose href is the codec server's
 * download endpoint (signed), and downloading it returns the file's bytes. The page is saved
 * under test/artifacts/ (and, with A2A_UPDATE_SCREENSHOT=1, as docs/images/delegation-artifacts.png).
 *
 * Why the details, not the result pane: this UI (2.54) asks `/decode?preserveStorageRefs=true`
 * for every payload, so a payload kept in the store stays a claim there (with a Download button
 * that asks `/download`); the files themselves are ArtifactRefs in an inline result. The
 * delegation's current details (markdown, decoded through the codec server like every payload)
 * quote each artifact's text and link each file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../agents/index.js';
import { artifactRefOf, type DelegateResult } from '../../contract/index.js';
import { freePort } from '../../platform/free-port.js';
import { packageRoot } from '../../platform/paths.js';
import { startDevServer, type DevServer } from '../../platform/dev-server.js';
import { startCodecServer, type RunningCodecServer } from '../../storage/codec-server.js';
import { FsBlobStore } from '../../storage/fs-blob-store.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { registryOf } from '../helpers/delegations.js';
import { uniqueTaskQueue } from '../helpers/temporal.js';
import { launchChromium } from './chromium.js';

const SCREENSHOT = join(
  packageRoot,
  process.env.A2A_UPDATE_SCREENSHOT === '1' ? 'docs/images' : 'test/artifacts',
  'delegation-artifacts.png',
);
const CURRENT_DETAILS = 'iframe#user-metadata-current-details';
const UI_TIMEOUT_MS = 30_000;
const CHANGELOG_REQUEST = { service: 'payment-service', from: '1.4.0', to: '2.0.0' };

const root = mkdtempSync(join(tmpdir(), 'a2a-artifact-ui-'));
const store = new FsBlobStore({ dir: join(root, 'blobs') });
const token = randomBytes(24).toString('base64url');
let samples: SampleAgents;
let browser: Browser;
let codec: RunningCodecServer;
let server: DevServer;
let connection: Connection;
let nativeConnection: NativeConnection;

beforeAll(async () => {
  const uiPort = await freePort('127.0.0.1');
  [samples, browser, codec] = await Promise.all([
    startSampleAgents({ workDelayMs: 0, chunkDelayMs: 5 }),
    launchChromium(),
    startCodecServer({ store, token, corsOrigins: [`http://127.0.0.1:${uiPort}`] }, { port: 0 }),
  ]);
  // As `npm run demo` does: the embedded server's UI asks this codec server, the token in the path.
  server = await startDevServer({
    port: 0,
    uiPort,
    cliPath: inject('temporal').cliPath,
    extraArgs: ['--ui-codec-endpoint', `${codec.url}/${token}`],
  });
  connection = await Connection.connect({ address: server.address });
  nativeConnection = await NativeConnection.connect({ address: server.address });
});
afterAll(async () => {
  await nativeConnection?.close();
  await connection?.close();
  await server?.stop();
  await codec?.close();
  await browser?.close();
  await samples?.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the Temporal Web UI with the codec server', () => {
  it("shows a finished delegation's text and links its stored file to the codec server's download", async () => {
    const client = new Client({ connection });
    const taskQueue = uniqueTaskQueue('ui-files');
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: { codePath: inject('temporal').workflowBundlePath },
      plugins: [a2aTemporalPlugin({ registry: registryOf(samples.agents), blobs: { store } })],
    });
    // The worker keeps running while the page loads: a closed workflow's details are a query it answers.
    await worker.runUntil(async () => {
      const handle = await client.workflow.start('delegate', {
        taskQueue,
        workflowId: `${taskQueue}-changelog`,
        args: [
          {
            agent: 'changelog',
            label: 'changelog',
            text: 'Write the changelog.',
            parts: [{ data: CHANGELOG_REQUEST, mediaType: 'application/json' }],
          },
        ],
      });
      const result = (await handle.result()) as DelegateResult;
      const ref = result.artifacts.flatMap((a) => a.parts.map(artifactRefOf)).find((r) => r !== undefined);
      expect(ref?.name).toBe('CHANGELOG.md');
      const changelogText = result.artifacts
        .find((a) => a.name === 'Changelog')!
        .parts.map((p) => (p as { text?: string }).text ?? '')
        .join('');
      const firstLine = changelogText
        .split('\n')
        .find((l) => l.trim() && !l.startsWith('#'))!
        .trim();

      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await page.goto(`${server.uiUrl}/namespaces/default/workflows/${encodeURIComponent(handle.workflowId)}`);
        await page.getByTestId('user-metadata-tab').click();
        const details = page.frameLocator(CURRENT_DETAILS);
        // The artifact's text, decoded (markdown escaped: the line reads as the agent wrote it).
        await details.getByText(firstLine, { exact: false }).first().waitFor({ timeout: UI_TIMEOUT_MS });
        // The file: a link to the codec server's download endpoint, signed by it.
        const link = details.getByRole('link', { name: 'CHANGELOG.md' });
        await link.waitFor({ timeout: UI_TIMEOUT_MS });
        const href = (await link.getAttribute('href'))!;
        expect(href.startsWith(`${codec.url}/blobs/${ref!.key}?`)).toBe(true);
        expect(new URL(href).searchParams.get('sig')).toBeTruthy();
        expect(href).not.toContain(token);

        const download = await request(href);
        const bytes = Buffer.from(await download.body.arrayBuffer());
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-disposition']).toContain('CHANGELOG.md');
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(ref!.sha256);
        expect(bytes.length).toBe(ref!.size);

        const box = await page.locator(CURRENT_DETAILS).boundingBox();
        await page.setViewportSize({
          width: 1280,
          height: Math.min(2400, Math.max(800, Math.ceil((box?.y ?? 0) + (box?.height ?? 0) + 32))),
        });
        await link.waitFor({ timeout: UI_TIMEOUT_MS });
        mkdirSync(dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
      } finally {
        await page.close();
      }
    });
  });
});
