import { describe, expect, it } from 'vitest';
import { isPushCredential, parsePushPath, pushCredential, pushUrl } from '../../../activities/index.js';
import { pushTraceTag, verifiedTraceContext } from '../../../activities/push-credential.js';
import { traceQueryOf } from '../../../activities/push-url.js';
import { MalformedDeliveryError, parseDelivery, worthSignal } from '../../../worker/webhook-delivery.js';
import { loadWebhookDeps, loadWebhookReceiverConfig } from '../../../worker/webhook-config.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnopqrstuvwxyz';

const BINDING = { workflowId: 'wf-1', taskId: 'task-1', configId: 'cfg-1' };

describe('push credentials', () => {
  it('are a stable base64url HMAC bound to the workflow, the task and the push config', () => {
    const credential = pushCredential(SECRET, BINDING);
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pushCredential(SECRET, { ...BINDING })).toBe(credential);
    expect(pushCredential(SECRET, { ...BINDING, taskId: 'task-2' })).not.toBe(credential);
    expect(pushCredential(SECRET, { ...BINDING, workflowId: 'wf-2' })).not.toBe(credential);
    expect(pushCredential(SECRET, { ...BINDING, configId: 'cfg-2' })).not.toBe(credential);
    expect(pushCredential(`${SECRET}x`, BINDING)).not.toBe(credential);
  });

  it('are checked against every accepted secret, and only for their own config', () => {
    const credential = pushCredential(SECRET, BINDING);
    const other = 'another-secret-0123456789abcdefghijkl';
    expect(isPushCredential(credential, [SECRET], BINDING)).toBe(true);
    expect(isPushCredential(credential, [other, SECRET], BINDING)).toBe(true);
    expect(isPushCredential(credential, [other], BINDING)).toBe(false);
    expect(isPushCredential(credential, [SECRET], { ...BINDING, taskId: 'u' })).toBe(false);
    // The credential of an earlier registration (or of another run with this workflow id) is worthless here.
    expect(isPushCredential(credential, [SECRET], { ...BINDING, configId: 'cfg-2' })).toBe(false);
    expect(isPushCredential(`${credential}=`, [SECRET], BINDING)).toBe(false);
    expect(isPushCredential('', [SECRET], BINDING)).toBe(false);
  });

  it('refuse ids with a line feed (the separator), so no two bindings share one', () => {
    expect(() => pushCredential(SECRET, { ...BINDING, workflowId: 'a\nb' })).toThrow(/line feed/);
    expect(() => pushCredential(SECRET, { ...BINDING, configId: 'a\nb' })).toThrow(/line feed/);
    // ("a\nb", "c", …) would otherwise share the credential of ("a", "b\nc", …).
    expect(isPushCredential(pushCredential(SECRET, BINDING), [SECRET], { ...BINDING, taskId: 't\n' })).toBe(false);
  });
});

describe('the trace context of a push URL', () => {
  const carrier = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'k=v' };

  it('is taken only with the tag the receiver made for this config', () => {
    const tag = pushTraceTag(SECRET, BINDING, carrier);
    expect(verifiedTraceContext({ ...carrier, tag }, [SECRET], BINDING)).toEqual(carrier);
    expect(
      verifiedTraceContext({ ...carrier, tag }, ['old-secret-0123456789abcdefghijklmnop', SECRET], BINDING),
    ).toEqual(carrier);
  });

  it('is dropped when the query chose another context, another state, no tag, or the tag of another config', () => {
    const tag = pushTraceTag(SECRET, BINDING, carrier);
    const chosen = '00-11111111111111111111111111111111-2222222222222222-01';
    expect(verifiedTraceContext({ ...carrier, traceparent: chosen, tag }, [SECRET], BINDING)).toBeUndefined();
    expect(verifiedTraceContext({ ...carrier, tracestate: 'k=w', tag }, [SECRET], BINDING)).toBeUndefined();
    expect(verifiedTraceContext({ ...carrier }, [SECRET], BINDING)).toBeUndefined();
    expect(verifiedTraceContext({ ...carrier, tag }, [SECRET], { ...BINDING, configId: 'cfg-2' })).toBeUndefined();
    expect(verifiedTraceContext({ tag }, [SECRET], BINDING)).toBeUndefined();
  });

  it('travels in the query, read back as a claim the tag decides', () => {
    const tag = pushTraceTag(SECRET, BINDING, carrier);
    const url = pushUrl('https://hooks.example.com', BINDING, { carrier, tag });
    const { pathname, search } = new URL(url);
    expect(parsePushPath(`${pathname}${search}`)).toEqual(BINDING);
    expect(traceQueryOf(`${pathname}${search}`)).toEqual({ ...carrier, tag });
    expect(traceQueryOf(`${pathname}?traceparent=${'x'.repeat(600)}`)).toEqual({});
  });
});

describe('push URLs', () => {
  it('name the workflow, the task and the config, percent-encoded, and parse back', () => {
    const url = pushUrl('https://hooks.example.com/', {
      workflowId: 'release/42 compat',
      taskId: 'task?1#x',
      configId: 'c/1',
    });
    expect(url).toBe('https://hooks.example.com/a2a/push/release%2F42%20compat/task%3F1%23x/c%2F1');
    expect(parsePushPath(new URL(url).pathname)).toEqual({
      workflowId: 'release/42 compat',
      taskId: 'task?1#x',
      configId: 'c/1',
    });
  });

  it('are not parsed from other paths', () => {
    for (const path of [
      '/a2a/push/',
      '/a2a/push/wf/t',
      '/a2a/push/wf//c',
      '/a2a/push/wf/t/c/extra',
      '/other/wf/t/c',
      '/a2a/push/%E0%A4%A/t/c',
    ]) {
      expect(parsePushPath(path), path).toBeUndefined();
    }
  });
});

describe('delivery bodies', () => {
  it('read 1.0 stream events and 0.3 kind-tagged events', () => {
    expect(parseDelivery(JSON.stringify({ task: { id: 't', status: { state: 'TASK_STATE_WORKING' } } }))).toEqual({
      kind: 'task',
      taskId: 't',
      state: 'TASK_STATE_WORKING',
      version: '1.0',
      generation: expect.stringMatching(/^body:/),
    });
    expect(
      parseDelivery(
        JSON.stringify({ kind: 'status-update', taskId: 't', status: { state: 'input-required' }, final: true }),
      ),
    ).toEqual({
      kind: 'statusUpdate',
      taskId: 't',
      state: 'TASK_STATE_INPUT_REQUIRED',
      version: '0.3',
      generation: expect.stringMatching(/^body:/),
    });
    const question = {
      statusUpdate: {
        taskId: 't',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId: 'q1', role: 'ROLE_AGENT', parts: [{ text: 'Which?' }] },
        },
      },
    };
    expect(parseDelivery(JSON.stringify(question))).toMatchObject({
      kind: 'statusUpdate',
      state: 'TASK_STATE_INPUT_REQUIRED',
      messageId: 'q1',
    });
    expect(
      parseDelivery(JSON.stringify({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } })),
    ).toMatchObject({
      kind: 'message',
      taskId: undefined,
    });
  });

  it('name their news: the status shown when it has a timestamp (whatever else the body says), else the bytes', () => {
    const status = { state: 'TASK_STATE_INPUT_REQUIRED', timestamp: '2026-01-01T00:00:00Z' };
    const asTask = parseDelivery(JSON.stringify({ task: { id: 't', status, artifacts: [] } }));
    const asUpdate = parseDelivery(JSON.stringify({ statusUpdate: { taskId: 't', status } }));
    expect(asTask.generation).toBe(asUpdate.generation);
    const later = parseDelivery(
      JSON.stringify({ statusUpdate: { taskId: 't', status: { ...status, timestamp: '2026-01-01T00:00:01Z' } } }),
    );
    expect(later.generation).not.toBe(asUpdate.generation);
    const untimed = JSON.stringify({ statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(parseDelivery(untimed).generation).toBe(parseDelivery(untimed).generation);
    expect(parseDelivery(untimed).generation).not.toBe(parseDelivery(`${untimed} `).generation);
  });

  it('refuse what is not an event, with a sentence', () => {
    expect(() => parseDelivery('nope')).toThrow(MalformedDeliveryError);
    expect(() => parseDelivery('{"task": {"id": "t"}, "message": {}}')).toThrow(/exactly one of/);
    expect(() => parseDelivery('{"kind": "task", "id": "t"}')).toThrow(MalformedDeliveryError);
  });

  it('wake the delegation only for states that can end a wait', () => {
    expect(worthSignal({ kind: 'artifactUpdate' })).toBe(false);
    expect(worthSignal({ kind: 'statusUpdate', state: 'TASK_STATE_WORKING' })).toBe(false);
    expect(worthSignal({ kind: 'task', state: 'TASK_STATE_SUBMITTED' })).toBe(false);
    expect(worthSignal({ kind: 'task', state: 'TASK_STATE_INPUT_REQUIRED' })).toBe(true);
    expect(worthSignal({ kind: 'statusUpdate', state: 'TASK_STATE_FAILED' })).toBe(true);
    expect(worthSignal({ kind: 'message' })).toBe(true);
  });
});

describe('webhook settings', () => {
  it('give the activities push deps only with both the URL and the secret', () => {
    expect(loadWebhookDeps({})).toBeUndefined();
    expect(loadWebhookDeps({ A2A_WEBHOOK_URL: 'https://hooks.example.com', A2A_WEBHOOK_SECRET: SECRET })).toEqual({
      publicUrl: 'https://hooks.example.com',
      secret: SECRET,
    });
    expect(() => loadWebhookDeps({ A2A_WEBHOOK_URL: 'https://hooks.example.com' })).toThrow(
      /needs both A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET/,
    );
    expect(() => loadWebhookDeps({ A2A_WEBHOOK_SECRET: 'short' })).toThrow(
      /A2A_WEBHOOK_SECRET is invalid: must be at least 32 characters/,
    );
    expect(() => loadWebhookDeps({ A2A_WEBHOOK_URL: 'ftp://x', A2A_WEBHOOK_SECRET: SECRET })).toThrow(
      /A2A_WEBHOOK_URL is invalid/,
    );
  });

  it('refuse a plain-http webhook URL on a host that is not loopback unless A2A_WEBHOOK_ALLOW_INSECURE is true', () => {
    const insecure = { A2A_WEBHOOK_URL: 'http://worker:8787', A2A_WEBHOOK_SECRET: SECRET };
    expect(() => loadWebhookDeps(insecure)).toThrow(/plain http to worker:8787.*A2A_WEBHOOK_ALLOW_INSECURE=true/);
    expect(loadWebhookDeps({ ...insecure, A2A_WEBHOOK_ALLOW_INSECURE: 'true' })?.publicUrl).toBe('http://worker:8787');
    for (const loopback of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787'])
      expect(loadWebhookDeps({ A2A_WEBHOOK_URL: loopback, A2A_WEBHOOK_SECRET: SECRET })?.publicUrl).toBe(loopback);
  });

  it('give the receiver its secret, rotated-out secrets, bind addresses and stats port; flags win', () => {
    const env = {
      A2A_WEBHOOK_SECRET: SECRET,
      A2A_WEBHOOK_PREVIOUS_SECRETS: ` ${SECRET.toUpperCase()} ,`,
      A2A_WEBHOOK_PORT: '9000',
    };
    expect(loadWebhookReceiverConfig(env, { port: 9100 })).toEqual({
      secret: SECRET,
      previousSecrets: [SECRET.toUpperCase()],
      host: '127.0.0.1',
      port: 9100,
      maxBodyBytes: 1024 * 1024,
      statsHost: '127.0.0.1',
      limits: {},
    });
    expect(loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_STATS_PORT: '9001' }, { statsPort: 9101 })).toMatchObject({
      statsPort: 9101,
    });
    expect(loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_STATS_PORT: '9001' })).toMatchObject({ statsPort: 9001 });
    expect(() => loadWebhookReceiverConfig({})).toThrow(/needs A2A_WEBHOOK_SECRET/);
  });

  it("give the receiver the limits set in the environment, and refuse a header timeout longer than the request's", () => {
    const env = {
      A2A_WEBHOOK_SECRET: SECRET,
      A2A_WEBHOOK_MAX_REQUESTS_PER_SECOND: '500',
      A2A_WEBHOOK_MAX_REQUESTS_PER_SOURCE: '0',
      A2A_WEBHOOK_SIGNAL_INTERVAL_MS: '2000',
      A2A_WEBHOOK_MAX_CONNECTIONS: '100',
      A2A_WEBHOOK_MAX_CONNECTIONS_PER_SOURCE: '10',
      A2A_WEBHOOK_HEADERS_TIMEOUT_MS: '2000',
      A2A_WEBHOOK_REQUEST_TIMEOUT_MS: '4000',
      A2A_WEBHOOK_IDLE_TIMEOUT_MS: '3000',
    };
    expect(loadWebhookReceiverConfig(env).limits).toEqual({
      requestsPerSecond: 500,
      requestsPerSecondPerSource: 0,
      signalIntervalMs: 2000,
      maxConnections: 100,
      maxConnectionsPerSource: 10,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      idleTimeoutMs: 3000,
    });
    expect(() => loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_HEADERS_TIMEOUT_MS: '5000' })).toThrow(
      /A2A_WEBHOOK_HEADERS_TIMEOUT_MS \(5000\) is longer than A2A_WEBHOOK_REQUEST_TIMEOUT_MS \(4000\)/,
    );
    expect(() => loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_MAX_CONNECTIONS: '0' })).toThrow(
      /A2A_WEBHOOK_MAX_CONNECTIONS is invalid/,
    );
  });
});
