/**
 * The receiver against the SDK's real push senders, on every binding and version the sample agent
 * serves in legacy mode: configs registered the way `registerPushConfig` does are delivered with a
 * credential the receiver accepts, in 1.0 (StreamResponse) and 0.3 (Task with `kind`) bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCredential, pushUrl } from '../../../activities/index.js';
import { createA2AClient, fetchAgentCard, type AgentCard } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { startWebhookReceiver, type RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { rejectedTotal } from '../../../worker/webhook-stats.js';
import type { TaskUpdatedNotice } from '../../../contract/delegation-types.js';
import { waitFor } from '../../helpers/wait.js';
import { endpointFor, MODES, userMessage } from '../a2a/support.js';
import { SECRET } from './support.js';

let agent: RunningAgent;
let card: AgentCard;
let receiver: RunningWebhookReceiver;
const signals: Array<{ workflowId: string; notice: TaskUpdatedNotice }> = [];

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, legacy: true, workDelayMs: 20, chunkDelayMs: 5 });
  card = (await fetchAgentCard(agent.baseUrl)).card;
  receiver = await startWebhookReceiver({
    secret: SECRET,
    notify: async (workflowId, notice) => {
      signals.push({ workflowId, notice });
      return 'delivered';
    },
    logger: { warn: console.warn, error: console.error },
  });
});
afterAll(async () => {
  await receiver?.close();
  await agent?.close();
});

describe('push deliveries from the SDK sender', () => {
  for (const mode of MODES) {
    it(`are verified and signalled over ${mode.name}`, async () => {
      const client = createA2AClient({ endpoint: endpointFor(card, mode) });
      const workflowId = `interop/${mode.name}`;
      const first = await client.sendMessage({ message: userMessage(), configuration: { returnImmediately: true } });
      expect('task' in first).toBe(true);
      const taskId = 'task' in first ? first.task.id : '';
      const binding = { workflowId, taskId, configId: 'a2a-temporal' };
      const credential = pushCredential(SECRET, binding);
      await client.createPushConfig({
        taskId,
        id: binding.configId,
        url: pushUrl(receiver.url, binding),
        token: credential,
        authentication: { scheme: 'Bearer', credentials: credential },
      });
      await waitFor(async () => (await client.getTask({ id: taskId })).status.state === 'TASK_STATE_INPUT_REQUIRED', {
        what: 'the question',
      });

      const before = receiver.stats();
      await client.sendMessage({
        message: userMessage({ text: 'Node.js 24', manifest: false, taskId }),
        configuration: { returnImmediately: true },
      });
      const completed = await waitFor(
        () => signals.find((s) => s.workflowId === workflowId && s.notice.state === 'TASK_STATE_COMPLETED'),
        { what: `a COMPLETED delivery over ${mode.name}` },
      );
      expect(completed.notice.taskId).toBe(taskId);
      const after = receiver.stats();
      expect(rejectedTotal(after)).toBe(rejectedTotal(before));
      expect(after.progress).toBeGreaterThan(before.progress); // working and artifact chunks: answered, not signalled
      await client.deletePushConfig({ taskId, id: 'a2a-temporal' });
      expect((await client.listPushConfigs({ taskId })).configs).toEqual([]);
    });
  }
});
