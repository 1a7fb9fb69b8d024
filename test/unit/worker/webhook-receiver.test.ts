import { afterEach, describe, expect, it } from 'vitest';
import { pushCredential, pushUrl } from '../../../activities/index.js';
import type { TaskUpdatedNotice } from '../../../contract/delegation-types.js';
import type { PushNotifier } from '../../../worker/webhook-notifier.js';
import { startWebhookReceiver, STATS_PATH, type RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { rejectedTotal } from '../../../worker/webhook-stats.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const OLD_SECRET = 'old-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const WF = 'release-42/compat';
const TASK = 'task 1/é';

interface Rig {
  receiver: RunningWebhookReceiver;
  signals: Array<{ workflowId: string; notice: TaskUpdatedNotice }>;
  logs: string[];
}

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.receiver.close();
  rig = undefined;
});

async function start(notify?: PushNotifier, maxBodyBytes?: number): Promise<Rig> {
  const signals: Rig['signals'] = [];
  const logs: string[] = [];
  const receiver = await startWebhookReceiver({
    secret: SECRET,
    previousSecrets: [OLD_SECRET],
    maxBodyBytes,
    statsPort: 0,
    notify:
      notify ??
      (async (workflowId, notice) => {
        signals.push({ workflowId, notice });
        return 'delivered';
      }),
    logger: { warn: (line: string) => logs.push(line), error: (line: string) => logs.push(line) },
  });
  rig = { receiver, signals, logs };
  return rig;
}

function post(
  receiver: RunningWebhookReceiver,
  body: unknown,
  headers: Record<string, string> = {},
  ids = { workflowId: WF, taskId: TASK },
) {
  return fetch(pushUrl(receiver.url, ids.workflowId, ids.taskId), {
    method: 'POST',
    headers: { 'Content-Type': 'application/a2a+json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
}

const bearer = (secret = SECRET, workflowId = WF, taskId = TASK) => ({
  Authorization: `Bearer ${pushCredential(secret, workflowId, taskId)}`,
});
const inputRequired = {
  statusUpdate: { taskId: TASK, contextId: 'c1', status: { state: 'TASK_STATE_INPUT_REQUIRED' } },
};

describe('the webhook receiver', () => {
  it('signals a verified 1.0 delivery with a small notice', async () => {
    const { receiver, signals } = await start();
    const response = await post(receiver, inputRequired, bearer());
    expect(response.status).toBe(200);
    expect(signals).toEqual([
      { workflowId: WF, notice: { taskId: TASK, kind: 'statusUpdate', state: 'TASK_STATE_INPUT_REQUIRED' } },
    ]);
    expect(receiver.stats()).toMatchObject({ received: 1, signaled: 1, progress: 0 });
  });

  it('takes a 0.3 delivery: a Task with kind, the token in X-A2A-Notification-Token, application/json', async () => {
    const { receiver, signals } = await start();
    const body = { kind: 'task', id: TASK, contextId: 'c1', status: { state: 'completed' } };
    const response = await post(receiver, body, {
      'Content-Type': 'application/json; charset=utf-8',
      'X-A2A-Notification-Token': pushCredential(SECRET, WF, TASK),
    });
    expect(response.status).toBe(200);
    expect(signals[0]?.notice).toEqual({ taskId: TASK, kind: 'task', state: 'TASK_STATE_COMPLETED' });
  });

  it('accepts credentials derived from a secret being rotated out', async () => {
    const { receiver, signals } = await start();
    expect((await post(receiver, inputRequired, bearer(OLD_SECRET))).status).toBe(200);
    expect(signals).toHaveLength(1);
  });

  it('answers 200 without a signal to progress only (working, artifact chunks)', async () => {
    const { receiver, signals } = await start();
    const working = { statusUpdate: { taskId: TASK, status: { state: 'TASK_STATE_WORKING' } } };
    const chunk = {
      artifactUpdate: { taskId: TASK, artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, append: true },
    };
    expect((await post(receiver, working, bearer())).status).toBe(200);
    expect((await post(receiver, chunk, bearer())).status).toBe(200);
    expect(signals).toEqual([]);
    expect(receiver.stats()).toMatchObject({ received: 2, signaled: 0, progress: 2 });
  });

  it('refuses in order: size, credential, its validity, media type, body, task — and counts each reason', async () => {
    const { receiver, signals, logs } = await start(undefined, 1024);
    const cases: Array<[string, Promise<Response>, number, string]> = [
      ['oversized (declared)', post(receiver, 'x'.repeat(2048), {}), 413, 'too-large'],
      ['no credential', post(receiver, inputRequired), 401, 'unauthenticated'],
      ['wrong credential', post(receiver, inputRequired, { Authorization: 'Bearer nope' }), 403, 'bad-credential'],
      ['credential of another task', post(receiver, inputRequired, bearer(SECRET, WF, 'other')), 403, 'bad-credential'],
      [
        'wrong media type',
        post(receiver, inputRequired, { ...bearer(), 'Content-Type': 'text/plain' }),
        415,
        'unsupported-media-type',
      ],
      ['no JSON', post(receiver, '{', bearer()), 400, 'malformed'],
      ['not an event', post(receiver, { task: { id: TASK } }, bearer()), 400, 'malformed'],
      [
        'another task in the body',
        post(receiver, { task: { id: 'other', status: { state: 'TASK_STATE_COMPLETED' } } }, bearer()),
        403,
        'task-mismatch',
      ],
    ];
    for (const [what, pending, status, reason] of cases) {
      const response = await pending;
      expect(response.status, what).toBe(status);
      expect(((await response.json()) as { error: { reason: string } }).error.reason, what).toBe(reason);
    }
    expect(signals).toEqual([]);
    const stats = receiver.stats();
    expect(rejectedTotal(stats)).toBe(cases.length);
    expect(stats.rejected).toMatchObject({
      'too-large': 1,
      unauthenticated: 1,
      'bad-credential': 2,
      'unsupported-media-type': 1,
      malformed: 2,
      'task-mismatch': 1,
    });
    expect(logs).toHaveLength(cases.length);
    expect(logs.join('\n')).not.toContain(pushCredential(SECRET, WF, TASK));
    expect(logs.join('\n')).not.toContain(pushCredential(SECRET, WF, 'other'));
    expect(logs.every((line) => !line.includes('\n'))).toBe(true);
  });

  it('refuses a chunked body that passes the limit while it is read', async () => {
    const { receiver } = await start(undefined, 1024);
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i += 1) controller.enqueue(new Uint8Array(512).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(pushUrl(receiver.url, WF, TASK), {
      method: 'POST',
      headers: { 'Content-Type': 'application/a2a+json', ...bearer() },
      body: big,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('says 410 when the workflow has ended and 503 (retry later) when Temporal does not answer', async () => {
    let answer: () => Promise<'delivered' | 'gone'> = async () => 'gone';
    const { receiver } = await start(() => answer());
    expect((await post(receiver, inputRequired, bearer())).status).toBe(410);
    answer = async () => {
      throw new Error('14 UNAVAILABLE: connection refused');
    };
    const unavailable = await post(receiver, inputRequired, bearer());
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('10');
    expect(receiver.stats()).toMatchObject({ gone: 1, failed: 1, signaled: 0 });
  });

  it('refuses a task id, message id or state longer than 256 characters, and signals nothing', async () => {
    const { receiver, signals, logs } = await start();
    const long = 'x'.repeat(257);
    const withMessage = (messageId: string) => ({
      statusUpdate: {
        taskId: TASK,
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId, role: 'ROLE_AGENT', parts: [{ text: 'q' }] },
        },
      },
    });
    const longTask = { statusUpdate: { taskId: long, status: { state: 'TASK_STATE_COMPLETED' } } };
    const cases: Array<[string, Promise<Response>]> = [
      ['a 1 MB message id', post(receiver, withMessage('m'.repeat(1_000_000)), bearer())],
      ['a 257-character message id', post(receiver, withMessage(long), bearer())],
      ['a 257-character task id', post(receiver, longTask, bearer(SECRET, WF, long), { workflowId: WF, taskId: long })],
    ];
    for (const [what, pending] of cases) {
      const response = await pending;
      expect(response.status, what).toBe(400);
      expect(((await response.json()) as { error: { reason: string } }).error.reason, what).toBe('id-too-long');
    }
    expect(signals).toEqual([]);
    expect(receiver.stats().rejected['id-too-long']).toBe(cases.length);
    expect(logs.every((line) => line.length < 1_000)).toBe(true);
    // 256 characters are fine.
    expect((await post(receiver, withMessage('m'.repeat(256)), bearer())).status).toBe(200);
    expect(signals).toHaveLength(1);
  });

  it('serves its counters only on the stats listener, and 404/405 elsewhere', async () => {
    const { receiver } = await start();
    expect((await fetch(`${receiver.url}/elsewhere`, { method: 'POST' })).status).toBe(404);
    const get = await fetch(pushUrl(receiver.url, WF, TASK));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const onPublic = await fetch(`${receiver.url}${STATS_PATH}`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.text()).not.toContain('received');
    expect(receiver.statsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(receiver.statsUrl).not.toBe(receiver.url);
    const stats = await fetch(`${receiver.statsUrl}${STATS_PATH}`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ received: 1, rejected: { 'not-found': 2, 'method-not-allowed': 1 } });
    expect((await fetch(`${receiver.statsUrl}${STATS_PATH}`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${receiver.statsUrl}/a2a/push/wf/task`, { method: 'POST' })).status).toBe(404);
  });

  it('has no stats listener unless asked for one', async () => {
    const quiet = { warn() {}, error() {} };
    const receiver = await startWebhookReceiver({ secret: SECRET, notify: async () => 'delivered', logger: quiet });
    try {
      expect(receiver.statsUrl).toBeUndefined();
      expect((await fetch(`${receiver.url}${STATS_PATH}`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});
