import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { localPushAnswer, withPushIo } from '../../../activities/push-local-state.js';

const inWorkflow = (workflowId: string) =>
  new MockActivityEnvironment({
    workflowExecution: { workflowId, runId: 'run-1' },
  });
const running = () => false;

describe('what the push activities of this process know', () => {
  it('says later for the config of a send or read under way, and only for its workflow', async () => {
    let during: unknown[] = [];
    await inWorkflow('wf-a').run(() =>
      withPushIo(
        'config-1',
        async () => {
          during = [
            localPushAnswer('wf-a', 'config-1'),
            localPushAnswer('wf-a', 'config-2'),
            localPushAnswer('wf-b', 'config-1'),
            localPushAnswer('wf-a', undefined),
          ];
        },
        running,
      ),
    );
    expect(during).toEqual(['later', undefined, undefined, undefined]);
    expect(localPushAnswer('wf-a', 'config-1')).toBeUndefined();
  });

  it('stays under way until the last of nested calls ends, also when one fails', async () => {
    let afterInner: unknown;
    await inWorkflow('wf-nested').run(() =>
      withPushIo(
        'config-1',
        async () => {
          await withPushIo('config-1', () => Promise.reject(new Error('read failed')), running).catch(() => {});
          afterInner = localPushAnswer('wf-nested', 'config-1');
        },
        running,
      ),
    );
    expect(afterInner).toBe('later');
    expect(localPushAnswer('wf-nested', 'config-1')).toBeUndefined();
  });

  it('says gone once a read found the config’s task ended', async () => {
    const phase = await inWorkflow('wf-ended').run(() =>
      withPushIo(
        'config-1',
        async () => 'completed',
        (p) => p === 'completed',
      ),
    );
    expect(phase).toBe('completed');
    expect(localPushAnswer('wf-ended', 'config-1')).toBe('gone');
    expect(localPushAnswer('wf-ended', 'config-2')).toBeUndefined();
  });

  it('knows nothing of an activity without a push config', async () => {
    const seen = await inWorkflow('wf-poll').run(() =>
      withPushIo(
        undefined,
        async () => 'read',
        () => true,
      ),
    );
    expect(seen).toBe('read');
  });
});
