import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { anatomyOf, medianAnatomy } from '../../../bench/latency-anatomy.js';

/** An event of the given kind at `ms` after 2026-01-01T00:00:00Z (seconds as a number: the proto type says Long, `Number()` reads both). */
const at = (ms: number, kind: string) =>
  ({
    eventTime: { seconds: 1_767_225_600 + Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 },
    [`${kind}EventAttributes`]: {},
  }) as unknown as temporal.api.history.v1.IHistoryEvent;

describe('anatomyOf', () => {
  it('charges each gap to the step the later event ends', () => {
    const events = [
      at(0, 'workflowExecutionStarted'),
      at(1, 'workflowTaskScheduled'),
      at(4, 'workflowTaskStarted'),
      at(12, 'workflowTaskCompleted'),
      at(12, 'activityTaskScheduled'),
      at(13, 'activityTaskStarted'),
      at(20, 'activityTaskCompleted'),
      at(21, 'workflowTaskScheduled'),
      at(22, 'workflowTaskStarted'),
      at(27, 'workflowTaskCompleted'),
      at(27, 'upsertWorkflowSearchAttributes'),
      at(40, 'workflowExecutionSignaled'),
      at(1040, 'workflowExecutionCompleted'),
    ];
    expect(anatomyOf(events)).toEqual({
      workflow_task_queue: 3 + 1,
      workflow_task_run: 8 + 5,
      activity_queue: 1,
      activity_run: 7,
      answer: 13,
      timer: 0,
      other: 1 + 1 + 1000,
      span: 1040,
    });
  });

  it('is all zeros for a history of one event', () => {
    expect(Object.values(anatomyOf([at(5, 'workflowExecutionStarted')]))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('medianAnatomy', () => {
  it('takes the median of each step on its own', () => {
    const a = (activity_run: number, span: number) => ({ ...anatomyOf([]), activity_run, span });
    expect(medianAnatomy([a(1, 30), a(5, 10), a(3, 20)])).toMatchObject({ activity_run: 3, span: 20 });
  });
});
