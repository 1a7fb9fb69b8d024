import { describe, expect, it } from 'vitest';
import { isPushCredential, parsePushPath, pushCredential, pushUrl } from '../../../activities/index.js';
import { MalformedDeliveryError, parseDelivery, worthSignal } from '../../../worker/webhook-delivery.js';
import { loadWebhookDeps, loadWebhookReceiverConfig } from '../../../worker/webhook-config.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnopqrstuvwxyz';

describe('push credentials', () => {
  it('are a stable base64url HMAC bound to the workflow and the task', () => {
    const credential = pushCredential(SECRET, 'wf-1', 'task-1');
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pushCredential(SECRET, 'wf-1', 'task-1')).toBe(credential);
    expect(pushCredential(SECRET, 'wf-1', 'task-2')).not.toBe(credential);
    expect(pushCredential(SECRET, 'wf-2', 'task-1')).not.toBe(credential);
    expect(pushCredential(`${SECRET}x`, 'wf-1', 'task-1')).not.toBe(credential);
  });

  it('are checked against every accepted secret', () => {
    const credential = pushCredential(SECRET, 'wf', 't');
    expect(isPushCredential(credential, [SECRET], 'wf', 't')).toBe(true);
    expect(isPushCredential(credential, ['another-secret-0123456789abcdefghijkl', SECRET], 'wf', 't')).toBe(true);
    expect(isPushCredential(credential, ['another-secret-0123456789abcdefghijkl'], 'wf', 't')).toBe(false);
    expect(isPushCredential(credential, [SECRET], 'wf', 'u')).toBe(false);
    expect(isPushCredential(`${credential}=`, [SECRET], 'wf', 't')).toBe(false);
    expect(isPushCredential('', [SECRET], 'wf', 't')).toBe(false);
  });

  it('refuse ids with a line feed (the separator), so no two pairs share one', () => {
    expect(() => pushCredential(SECRET, 'a\nb', 'c')).toThrow(/line feed/);
    // ("a\nb", "c") would otherwise share the credential of ("a", "b\nc").
    expect(isPushCredential(pushCredential(SECRET, 'x', 'y'), [SECRET], 'a\nb', 'c')).toBe(false);
  });
});

describe('push URLs', () => {
  it('name the workflow and the task, percent-encoded, and parse back', () => {
    const url = pushUrl('https://hooks.example.com/', 'release/42 compat', 'task?1#x');
    expect(url).toBe('https://hooks.example.com/a2a/push/release%2F42%20compat/task%3F1%23x');
    expect(parsePushPath(new URL(url).pathname)).toEqual({ workflowId: 'release/42 compat', taskId: 'task?1#x' });
  });

  it('are not parsed from other paths', () => {
    for (const path of ['/a2a/push/', '/a2a/push/wf', '/a2a/push/wf/t/extra', '/other/wf/t', '/a2a/push/%E0%A4%A/t']) {
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
    });
    expect(loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_STATS_PORT: '9001' }, { statsPort: 9101 })).toMatchObject({
      statsPort: 9101,
    });
    expect(loadWebhookReceiverConfig({ ...env, A2A_WEBHOOK_STATS_PORT: '9001' })).toMatchObject({ statsPort: 9001 });
    expect(() => loadWebhookReceiverConfig({})).toThrow(/needs A2A_WEBHOOK_SECRET/);
  });
});
