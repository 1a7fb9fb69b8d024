import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCredential, pushUrl } from '../../../activities/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import type { RejectionReason } from '../../../worker/webhook-stats.js';
import { answerUpdate, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import {
  deliveryTarget,
  forward,
  historyOf,
  processedEvents,
  registeredConfigId,
  SECRET,
  startReceiver,
  startTap,
  taskUpdatedSignals,
  withPushWorker,
} from './support.js';

const temporal = useTemporal();
let agent: RunningAgent;
let receiver: RunningWebhookReceiver;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 100, chunkDelayMs: 5 });
  receiver = await startReceiver(await temporal.client());
});
afterAll(async () => {
  await receiver?.close();
  await agent?.close();
});

interface Attempt {
  what: string;
  headers: Record<string, string>;
  body: string | Buffer;
  path?: string;
  status: number;
  reason: RejectionReason;
}

describe('push deliveries at the receiver', () => {
  it('refuses forged deliveries with the right status, counts them, and they change nothing', async () => {
    const client = await temporal.client();
    await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      // The task works before it asks, so the delegation holds a push config at the question.
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'push', metadata: { askDelayMs: 300 }, tracking: { pushSafetyNetInterval: '1 hour' } }),
      );
      const question = await waitForQuestion(handle);
      const { workflowId } = handle;
      const { taskId } = question;
      const { url, credential: valid, binding } = await deliveryTarget(agent, taskId);
      const completed = (id: string) =>
        JSON.stringify({ statusUpdate: { taskId: id, status: { state: 'TASK_STATE_COMPLETED' } } });
      const json = { 'Content-Type': 'application/a2a+json' };
      const attempts: Attempt[] = [
        { what: 'no credential', headers: json, body: completed(taskId), status: 401, reason: 'unauthenticated' },
        {
          what: 'another scheme',
          headers: { ...json, Authorization: `Basic ${valid}` },
          body: completed(taskId),
          status: 401,
          reason: 'unauthenticated',
        },
        {
          what: 'a wrong credential',
          headers: { ...json, Authorization: 'Bearer not-the-credential' },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: 'a wrong 0.3 token',
          headers: { ...json, 'X-A2A-Notification-Token': 'guess' },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: "another task's credential",
          headers: {
            ...json,
            Authorization: `Bearer ${pushCredential(SECRET, { ...binding, taskId: 'another-task' })}`,
          },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: 'the credential of another push config (an earlier registration, another run)',
          headers: {
            ...json,
            Authorization: `Bearer ${pushCredential(SECRET, { ...binding, configId: 'another-config' })}`,
          },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: 'a credential under another secret',
          headers: {
            ...json,
            Authorization: `Bearer ${pushCredential('some-other-secret-0123456789abcdefghijkl', binding)}`,
          },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: 'a valid credential on another workflow path',
          path: new URL(pushUrl(receiver.url, { ...binding, workflowId: `${workflowId}-other` })).pathname,
          headers: { ...json, Authorization: `Bearer ${valid}` },
          body: completed(taskId),
          status: 403,
          reason: 'bad-credential',
        },
        {
          what: 'a body about another task',
          headers: { ...json, Authorization: `Bearer ${valid}` },
          body: completed('another-task'),
          status: 403,
          reason: 'task-mismatch',
        },
        {
          what: 'an oversized body',
          headers: { ...json, Authorization: `Bearer ${valid}` },
          body: Buffer.alloc(2 * 1024 * 1024, 0x20),
          status: 413,
          reason: 'too-large',
        },
        {
          what: 'malformed JSON',
          headers: { ...json, Authorization: `Bearer ${valid}` },
          body: '{"statusUpdate": {',
          status: 400,
          reason: 'malformed',
        },
        {
          what: 'JSON that is no event',
          headers: { ...json, Authorization: `Bearer ${valid}` },
          body: '{"hello": "world"}',
          status: 400,
          reason: 'malformed',
        },
        {
          what: 'plain text',
          headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${valid}` },
          body: completed(taskId),
          status: 415,
          reason: 'unsupported-media-type',
        },
      ];

      const signalsBefore = taskUpdatedSignals(await historyOf(handle)).length;
      const before = receiver.stats();
      for (const attempt of attempts) {
        const target = attempt.path ? `${receiver.url}${attempt.path}` : url;
        const response = await fetch(target, { method: 'POST', headers: attempt.headers, body: attempt.body });
        expect(response.status, attempt.what).toBe(attempt.status);
        const body = (await response.json()) as { error: { reason: string } };
        expect(body.error.reason, attempt.what).toBe(attempt.reason);
        if (attempt.status === 401) expect(response.headers.get('www-authenticate'), attempt.what).toMatch(/^Bearer/);
      }
      const after = receiver.stats();
      const expected: Partial<Record<RejectionReason, number>> = {};
      for (const a of attempts) expected[a.reason] = (expected[a.reason] ?? 0) + 1;
      for (const [reason, count] of Object.entries(expected)) {
        expect(after.rejected[reason as RejectionReason] - before.rejected[reason as RejectionReason], reason).toBe(
          count,
        );
      }
      expect(after.signaled).toBe(before.signaled);

      // Nothing reached the workflow (the receiver answers only after its signal call returned): no
      // signal in its history, still waiting for the answer.
      expect(taskUpdatedSignals(await historyOf(handle))).toHaveLength(signalsBefore);
      expect(await statusOf(handle)).toMatchObject({ phase: 'waiting-for-input', taskId });

      // A verified delivery claiming completion is only a hint: the delegation keeps waiting for its answer.
      const hint = await fetch(url, {
        method: 'POST',
        headers: { ...json, Authorization: `Bearer ${valid}` },
        body: completed(taskId),
      });
      // 202 when the agent's own delivery of the question was signalled less than a second ago: one more follows.
      expect([200, 202]).toContain(hint.status);
      await waitFor(
        async () => taskUpdatedSignals(processedEvents(await historyOf(handle))).length === signalsBefore + 1,
        {
          what: 'the workflow to process the hint',
        },
      );
      expect(await statusOf(handle)).toMatchObject({ phase: 'waiting-for-input', taskId });

      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
    });
  });

  it('answers 410 to a genuine delivery for a delegation that has ended', async () => {
    const client = await temporal.client();
    const { workflowId, taskId, configId } = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'push', text: 'Check for Node.js 24' }),
      );
      const result = (await handle.result()) as DelegateResult;
      return {
        workflowId: handle.workflowId,
        taskId: result.taskId!,
        configId: registeredConfigId(await historyOf(handle)),
      };
    });
    const binding = { workflowId, taskId, configId };
    const deliver = async () =>
      (
        await fetch(pushUrl(receiver.url, binding), {
          method: 'POST',
          headers: {
            'Content-Type': 'application/a2a+json',
            Authorization: `Bearer ${pushCredential(SECRET, binding)}`,
          },
          body: JSON.stringify({ task: { id: taskId, status: { state: 'TASK_STATE_COMPLETED' } } }),
        })
      ).status;
    // At once, or (when the agent's own last delivery was signalled less than a second ago) as soon
    // as the signal due for this one found the workflow gone; 202 or 200 (duplicate) until then.
    const before = await deliver();
    expect([410, 202]).toContain(before);
    await waitFor(async () => (await deliver()) === 410, { what: '410 for the ended delegation' });
    expect(await deliver()).toBe(410);
  });

  it('does not duplicate artifacts when every delivery arrives twice and old ones are replayed', async () => {
    const client = await temporal.client();
    const run = (publicUrl: string, duringQuestion?: () => Promise<void>) =>
      withPushWorker(temporal, agent, publicUrl, async (taskQueue) => {
        const request = compatRequest({
          mode: 'push',
          // Work before each question: every turn is followed by deliveries.
          metadata: { scenario: 'second-question', askDelayMs: 200 },
          tracking: { pushSafetyNetInterval: '1 hour' },
        });
        const handle = await startDelegate(client, taskQueue, request);
        const first = await waitForQuestion(handle);
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
        await waitForQuestion(handle, first);
        await duringQuestion?.();
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'npm' }] });
        return (await handle.result()) as DelegateResult;
      });

    const undisturbed = await run(receiver.url);

    const tap = await startTap(receiver.url, 2);
    try {
      const before = receiver.stats();
      let replayed = 0;
      const duplicated = await run(tap.url, async () => {
        // Out of order: everything delivered so far, once more, while the delegation waits for its second answer.
        for (const delivery of [...tap.deliveries].reverse()) {
          expect(await forward(receiver.url, delivery)).toBe(200);
          replayed += 1;
        }
      });
      expect(duplicated).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
      expect(duplicated.artifacts).toEqual(undisturbed.artifacts);
      expect(tap.deliveries.length).toBeGreaterThan(2);
      expect(replayed).toBeGreaterThan(0);
      // The tap may still be forwarding the last events (answered 410 once the delegation ended).
      await waitFor(() => receiver.stats().received - before.received === 2 * tap.deliveries.length + replayed, {
        what: 'every delivery twice at the receiver, plus the replays',
      });
    } finally {
      await tap.close();
    }
  });
});
