import { afterEach, describe, expect, it } from 'vitest';
import { pushCredential, pushUrl } from '../../../activities/index.js';
import type { TaskUpdatedNotice } from '../../../contract/delegation-types.js';
import type { NotifyOutcome, PushNotifier } from '../../../worker/webhook-notifier.js';
import {
  startWebhookReceiver,
  STATS_PATH,
  type RunningWebhookReceiver,
  type WebhookListenOptions,
} from '../../../worker/webhook-receiver.js';
import { rejectedTotal, type WebhookStats } from '../../../worker/webhook-stats.js';
import { pushTraceTag, type TraceCarrier } from '../../../activities/push-credential.js';
import type { DeliveryObserver } from '../../../worker/webhook-receiver.js';
import { waitFor } from '../../helpers/wait.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const OLD_SECRET = 'old-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const WF = 'release-42/compat';
const TASK = 'task 1/é';
const CONFIG = 'cfg-1';
const BINDING = { workflowId: WF, taskId: TASK, configId: CONFIG };

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

async function start(
  notify?: PushNotifier,
  maxBodyBytes?: number,
  extra: Partial<WebhookListenOptions> = {},
): Promise<Rig> {
  const signals: Rig['signals'] = [];
  const logs: string[] = [];
  const receiver = await startWebhookReceiver({
    secret: SECRET,
    previousSecrets: [OLD_SECRET],
    maxBodyBytes,
    statsPort: 0,
    ...extra,
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
  binding = BINDING,
) {
  return fetch(pushUrl(receiver.url, binding), {
    method: 'POST',
    headers: { 'Content-Type': 'application/a2a+json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
}

const bearer = (secret = SECRET, binding = BINDING) => ({
  Authorization: `Bearer ${pushCredential(secret, binding)}`,
});
const inputRequired = {
  statusUpdate: { taskId: TASK, contextId: 'c1', status: { state: 'TASK_STATE_INPUT_REQUIRED' } },
};
const completedUpdate = {
  statusUpdate: { taskId: TASK, contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } },
};

describe('the webhook receiver', () => {
  it('signals a verified 1.0 delivery with a small notice', async () => {
    const { receiver, signals } = await start();
    const response = await post(receiver, completedUpdate, bearer());
    expect(response.status).toBe(200);
    expect(signals).toEqual([
      {
        workflowId: WF,
        notice: { taskId: TASK, kind: 'statusUpdate', state: 'TASK_STATE_COMPLETED', configId: CONFIG },
      },
    ]);
    expect(receiver.stats()).toMatchObject({ received: 1, signaled: 1, progress: 0 });
  });

  it('answers a delivery that shows a question 202 at once and signals it in the background', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { receiver, signals } = await start(async (workflowId, notice) => {
      signals.push({ workflowId, notice });
      if (signals.length === 1) await held; // the delegation is asked first, which can take a workflow task's time
      return 'delivered';
    });
    const response = await post(receiver, inputRequired, bearer());
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'accepted' });
    await waitFor(() => signals.length === 1, { what: 'the signal under way' });
    // The news after it is not held up either: it follows the signal under way (one at a time,
    // so the delegation's answer to each reflects the signal before it).
    expect((await post(receiver, completedUpdate, bearer())).status).toBe(202);
    release();
    await waitFor(() => receiver.stats().trailing === 2, { what: 'both signals' });
    expect(signals.map((s) => s.notice.state)).toEqual(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_COMPLETED']);
    expect(receiver.stats()).toMatchObject({ accepted: 1, coalesced: 1, signaled: 2, trailing: 2 });
  });

  it('takes a 0.3 delivery: a Task with kind, the token in X-A2A-Notification-Token, application/json', async () => {
    const { receiver, signals } = await start();
    const body = { kind: 'task', id: TASK, contextId: 'c1', status: { state: 'completed' } };
    const response = await post(receiver, body, {
      'Content-Type': 'application/json; charset=utf-8',
      'X-A2A-Notification-Token': pushCredential(SECRET, BINDING),
    });
    expect(response.status).toBe(200);
    expect(signals[0]?.notice).toEqual({ taskId: TASK, kind: 'task', state: 'TASK_STATE_COMPLETED', configId: CONFIG });
  });

  it('accepts credentials derived from a secret being rotated out', async () => {
    const { receiver, signals } = await start();
    expect((await post(receiver, completedUpdate, bearer(OLD_SECRET))).status).toBe(200);
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
      [
        'credential of another config',
        post(receiver, inputRequired, bearer(SECRET, { ...BINDING, configId: 'other' })),
        403,
        'bad-credential',
      ],
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
    // One line per reason in the window (the rest are counted, see the sampling test).
    expect(logs).toHaveLength(new Set(cases.map(([, , , reason]) => reason)).size);
    expect(logs.join('\n')).not.toContain(pushCredential(SECRET, BINDING));
    expect(logs.join('\n')).not.toContain(pushCredential(SECRET, { ...BINDING, configId: 'other' }));
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
    const response = await fetch(pushUrl(receiver.url, BINDING), {
      method: 'POST',
      headers: { 'Content-Type': 'application/a2a+json', ...bearer() },
      body: big,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('says 410 when the workflow has ended (and again without asking Temporal) and 503 when Temporal does not answer', async () => {
    let asked = 0;
    let answer: () => Promise<'delivered' | 'gone'> = async () => 'gone';
    const { receiver } = await start(() => ((asked += 1), answer()));
    expect((await post(receiver, completedUpdate, bearer())).status).toBe(410);
    const completed = { statusUpdate: { taskId: TASK, status: { state: 'TASK_STATE_COMPLETED' } } };
    expect((await post(receiver, completed, bearer())).status).toBe(410);
    expect(asked).toBe(1);
    answer = async () => {
      throw new Error('14 UNAVAILABLE: connection refused');
    };
    const other = { ...BINDING, configId: 'cfg-2' };
    const unavailable = await post(receiver, completedUpdate, bearer(SECRET, other), other);
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('10');
    expect(receiver.stats()).toMatchObject({ gone: 2, failed: 1, signaled: 0 });
  });

  it('answers 200 stale and counts it when the delegation does not want the notice', async () => {
    const { receiver } = await start(async () => 'stale');
    const response = await post(receiver, completedUpdate, bearer());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'stale' });
    expect(receiver.stats()).toMatchObject({ received: 1, stale: 1, signaled: 0, gone: 0 });
  });

  it('answers 202 when the delegation is reading the task, and signals the notice once it has read', async () => {
    const answers: NotifyOutcome[] = ['later', 'later'];
    const asked: TaskUpdatedNotice[] = [];
    const { receiver } = await start(async (_workflowId, notice) => {
      asked.push(notice);
      return answers.shift() ?? 'delivered';
    });
    const response = await post(receiver, completedUpdate, bearer());
    expect(response.status).toBe(202);
    await waitFor(() => receiver.stats().trailing === 1, { what: 'the signal after the read' });
    expect(asked).toHaveLength(3);
    expect(asked[2]).toMatchObject({ taskId: TASK, state: 'TASK_STATE_COMPLETED' });
    expect(receiver.stats()).toMatchObject({ received: 1, coalesced: 1, signaled: 1, stale: 0 });
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
      [
        'a 257-character task id',
        post(receiver, longTask, bearer(SECRET, { ...BINDING, taskId: long }), { ...BINDING, taskId: long }),
      ],
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
    // A question: answered at once, signalled in the background.
    expect((await post(receiver, withMessage('m'.repeat(256)), bearer())).status).toBe(202);
    await waitFor(() => signals.length === 1, { what: 'the signal' });
  });

  it('serves its counters only on the stats listener, and 404/405 elsewhere', async () => {
    const { receiver } = await start();
    expect((await fetch(`${receiver.url}/elsewhere`, { method: 'POST' })).status).toBe(404);
    const get = await fetch(pushUrl(receiver.url, BINDING));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const onPublic = await fetch(`${receiver.url}${STATS_PATH}`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.text()).not.toContain('received');
    expect(receiver.statsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(receiver.statsUrl).not.toBe(receiver.url);
    const stats = await fetch(`${receiver.statsUrl}${STATS_PATH}`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ received: 3, rejected: { 'not-found': 2, 'method-not-allowed': 1 } });
    expect((await fetch(`${receiver.statsUrl}${STATS_PATH}`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${receiver.statsUrl}/a2a/push/wf/task/cfg`, { method: 'POST' })).status).toBe(404);
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

  it('signals the same bytes delivered three times once', async () => {
    const { receiver, signals } = await start();
    const body = JSON.stringify(completedUpdate);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post(receiver, body, bearer())).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(signals).toHaveLength(1);
    expect(receiver.stats()).toMatchObject({ signaled: 1, duplicate: 2 });
  });

  it('coalesces deliveries while a signal is in flight into one more, which reads whatever they showed', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const notices: TaskUpdatedNotice[] = [];
    const { receiver } = await start(
      async (_workflowId, notice) => {
        notices.push(notice);
        if (notices.length === 1) await held; // Temporal is slow to take the first
        return 'delivered';
      },
      undefined,
      { limits: { signalIntervalMs: 0 } },
    );
    const question = (n: number) => ({
      statusUpdate: {
        taskId: TASK,
        status: {
          state: 'TASK_STATE_FAILED',
          message: { messageId: `q${n}`, role: 'ROLE_AGENT', parts: [{ text: `failure ${n}` }] },
        },
      },
    });
    const first = post(receiver, question(1), bearer());
    await waitFor(() => notices.length === 1, { what: 'the signal in flight' });
    const statuses = [];
    for (let n = 2; n <= 20; n += 1) statuses.push((await post(receiver, question(n), bearer())).status);
    expect(new Set(statuses)).toEqual(new Set([202]));
    expect(notices).toHaveLength(1);
    release();
    expect((await first).status).toBe(200);
    await waitFor(() => receiver.stats().trailing === 1, { what: 'the trailing signal' });
    // Nineteen different statuses: the one more signal shows none of them, so the delegation reads
    // (a stale status delivered last must not hide the news of an earlier one).
    expect(notices).toEqual([
      { taskId: TASK, kind: 'statusUpdate', state: 'TASK_STATE_FAILED', messageId: 'q1', configId: CONFIG },
      { taskId: TASK, kind: 'statusUpdate', configId: CONFIG },
    ]);
    expect(receiver.stats()).toMatchObject({ signaled: 2, trailing: 1, coalesced: 19 });
  });

  it('keeps the status in the one more signal when every coalesced delivery showed the same', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const notices: TaskUpdatedNotice[] = [];
    const { receiver } = await start(
      async (_workflowId, notice) => {
        notices.push(notice);
        if (notices.length === 1) await held;
        return 'delivered';
      },
      undefined,
      { limits: { signalIntervalMs: 0 } },
    );
    const completed = (at: string) => ({
      statusUpdate: { taskId: TASK, status: { state: 'TASK_STATE_COMPLETED', timestamp: at } },
    });
    const first = post(receiver, completedUpdate, bearer());
    await waitFor(() => notices.length === 1, { what: 'the signal in flight' });
    // The same status sent again (re-stamped): one generation each, one status between them.
    expect((await post(receiver, completed('2026-01-01T00:00:00Z'), bearer())).status).toBe(202);
    expect((await post(receiver, completed('2026-01-01T00:00:01Z'), bearer())).status).toBe(202);
    expect((await post(receiver, completed('2026-01-01T00:00:02Z'), bearer())).status).toBe(202);
    release();
    await first;
    await waitFor(() => notices.length === 2, { what: 'the trailing signal' });
    expect(notices[1]).toEqual({ taskId: TASK, kind: 'statusUpdate', state: 'TASK_STATE_COMPLETED', configId: CONFIG });
  });

  it("answers 429 with Retry-After past the sender's rate; nothing is logged one by one", async () => {
    const { receiver, logs } = await start(undefined, undefined, { limits: { requestsPerSecondPerSource: 1 } });
    const statuses: number[] = [];
    let limited: Response | undefined;
    const started = performance.now();
    for (let i = 0; i < 30; i += 1) {
      const response = await post(receiver, inputRequired);
      statuses.push(response.status);
      if (response.status === 429) limited ??= response;
    }
    // The burst (two seconds' worth), and one more for each second the loop took.
    const answered = statuses.filter((s) => s === 401).length;
    expect(answered).toBeGreaterThanOrEqual(2);
    expect(answered).toBeLessThanOrEqual(2 + Math.ceil((performance.now() - started) / 1000));
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - answered);
    expect(limited!.headers.get('retry-after')).toBe('1');
    expect(receiver.stats().rejected).toMatchObject({ 'rate-limited': 30 - answered, unauthenticated: answered });
    expect(logs).toHaveLength(1); // the first unauthenticated request; rate-limited ones only in the summary
    await receiver.close();
    expect(logs.at(-1)).toContain(`29 more in the last`);
    expect(logs.at(-1)).toContain(`unauthenticated ${answered - 1}, rate-limited ${30 - answered}`);
  });

  it('logs an unauthenticated path with control and bidi characters escaped', async () => {
    const { receiver, logs } = await start();
    const hostile = { workflowId: 'wf\u009b2J\u202eevil\u2066', taskId: 't\u001b]52;c;x\u0007', configId: 'c\u200b' };
    expect((await post(receiver, inputRequired, { Authorization: 'Bearer forged' }, hostile)).status).toBe(403);
    expect(logs).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(logs[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e\u2066]/);
    expect(logs[0]).toContain('"wf\\u009b2J\\u202eevil\\u2066"');
    expect(logs[0]).toContain('"t\\u001b]52;c;x\\u0007"');
    expect(logs[0]).toContain('"c\\u200b"');
  });

  it('links a signal only to the trace context it issued for the config, never to one the query chose', async () => {
    const links: Array<TraceCarrier | undefined> = [];
    const observer: DeliveryObserver = {
      outcome() {},
      signal: (_binding, link, send) => (links.push(link), send()),
    };
    const { receiver } = await start(undefined, undefined, { observer, limits: { signalIntervalMs: 0 } });
    const carrier = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const issued = pushUrl(receiver.url, BINDING, { carrier, tag: pushTraceTag(SECRET, BINDING, carrier) });
    const chosen = issued.replace('0af7651916cd43dd8448eb211c80319c', '11111111111111111111111111111111');
    const deliver = async (url: string, n: number) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/a2a+json', ...bearer() },
          body: JSON.stringify({ task: { id: TASK, status: { state: 'TASK_STATE_COMPLETED', timestamp: `${n}` } } }),
        })
      ).status;
    expect(await deliver(issued, 1)).toBe(200);
    expect(await deliver(chosen, 2)).toBe(200);
    expect(await deliver(`${pushUrl(receiver.url, BINDING)}?traceparent=${carrier.traceparent}`, 3)).toBe(200);
    expect(links).toEqual([carrier, undefined, undefined]);
  });

  it("shows the process's memory and event-loop delay on the stats listener, and restarts them on POST /reset", async () => {
    const { receiver } = await start();
    const read = async (method = 'GET', path = STATS_PATH) =>
      (await (await fetch(`${receiver.statsUrl}${path}`, { method })).json()) as WebhookStats;
    const before = await read();
    expect(before.process).toMatchObject({
      rssBytes: expect.any(Number),
      peakRssBytes: expect.any(Number),
      eventLoopDelayMs: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) },
    });
    expect(before.process!.peakRssBytes).toBeGreaterThanOrEqual(before.process!.rssBytes * 0.5);
    const reset = await read('POST', `${STATS_PATH}/reset`);
    expect(reset.process!.eventLoopDelayMs.max).toBeLessThanOrEqual(before.process!.eventLoopDelayMs.max || Infinity);
    expect(receiver.stats().process).toBeDefined();
  });
});
