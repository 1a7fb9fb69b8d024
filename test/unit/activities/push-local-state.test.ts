import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { pushIoUnderWay, withPushIoUnderWay } from '../../../activities/push-io-under-way.js';

const inWorkflow = (workflowId: string) =>
  new MockActivityEnvironment({
    workflowExecution: { workflowId, runId: 'run-1' },
  });

describe('push I/O under way', () => {
  it('marks the config of the running activity, and only for its workflow', async () => {
    let during: boolean[] = [];
    await inWorkflow('wf-a').run(() =>
      withPushIoUnderWay('config-1', async () => {
        during = [
          pushIoUnderWay('wf-a', 'config-1'),
          pushIoUnderWay('wf-a', 'config-2'),
          pushIoUnderWay('wf-b', 'config-1'),
          pushIoUnderWay('wf-a', undefined),
        ];
      }),
    );
    expect(during).toEqual([true, false, false, false]);
    expect(pushIoUnderWay('wf-a', 'config-1')).toBe(false);
  });

  it('stays marked until the last of nested activities ends, also when one fails', async () => {
    const env = inWorkflow('wf-nested');
    let afterInner: boolean | undefined;
    await env.run(() =>
      withPushIoUnderWay('config-1', async () => {
        await withPushIoUnderWay('config-1', () => Promise.reject(new Error('read failed'))).catch(() => {});
        afterInner = pushIoUnderWay('wf-nested', 'config-1');
      }),
    );
    expect(afterInner).toBe(true);
    expect(pushIoUnderWay('wf-nested', 'config-1')).toBe(false);
  });

  it('marks nothing for an activity without a push config', async () => {
    const seen = await inWorkflow('wf-poll').run(() => withPushIoUnderWay(undefined, async () => 'read'));
    expect(seen).toBe('read');
    expect(pushIoUnderWay('wf-poll', 'undefined')).toBe(false);
  });
});
