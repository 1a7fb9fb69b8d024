import { describe, expect, it } from 'vitest';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporal = useTemporal();

describe('the integration harness', () => {
  it('runs a workflow and its activity on the real dev server', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('harness');
    const worker = await temporal.worker({ taskQueue, activities: { greet: async (name: string) => `hello ${name}` } });
    const result = await worker.runUntil(
      client.workflow.execute('harnessPing', { taskQueue, workflowId: taskQueue, args: ['payment-service'] }),
    );
    expect(result).toBe('workflow says: hello payment-service');
    const history = await client.workflow.getHandle(taskQueue).fetchHistory();
    expect(history.events?.some((e) => e.activityTaskCompletedEventAttributes)).toBe(true);
  });
});
