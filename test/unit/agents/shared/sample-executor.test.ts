import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Message } from '@a2a-js/sdk';
import {
  DefaultExecutionEventBus,
  RequestContext,
  ServerCallContext,
  type AgentExecutionEvent,
} from '@a2a-js/sdk/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { textPart } from '../../../../agents/shared/parts.js';
import { SampleAgentExecutor, type Skill } from '../../../../agents/shared/sample-executor.js';

function userMessage(metadata?: Record<string, unknown>): Message {
  return {
    messageId: randomUUID(),
    contextId: 'ctx-1',
    taskId: 'task-1',
    role: Role.ROLE_USER,
    parts: [textPart('go')],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function context(message: Message): RequestContext {
  return new RequestContext(
    { tenant: '', message, configuration: undefined, metadata: undefined },
    'task-1',
    'ctx-1',
    new ServerCallContext(),
  );
}

function recordingBus() {
  const bus = new DefaultExecutionEventBus();
  const events: AgentExecutionEvent[] = [];
  bus.on('event', (event) => events.push(event));
  const states = () => events.flatMap((e) => (e.kind === 'statusUpdate' && e.data.status ? [e.data.status.state] : []));
  return { bus, events, states };
}

/** A skill that streams three chunks and completes. */
const streamThree: Skill = async (turn) => {
  turn.working();
  if (!(await turn.delay(turn.settings.workDelayMs))) return;
  const chunk = (text: string) => [textPart(text)];
  if (await turn.streamArtifact({ artifactId: 'a', name: 'A', chunks: [chunk('1'), chunk('2'), chunk('3')] }))
    turn.complete('done');
};

describe('SampleAgentExecutor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('publishes the task first, then the skill events with append/lastChunk set per chunk', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 100, chunkDelayMs: 50 });
    const { bus, events, states } = recordingBus();
    const run = executor.execute(context(userMessage()), bus);
    await vi.runAllTimersAsync();
    await run;
    expect(events[0]?.kind).toBe('task');
    const chunks = events.flatMap((e) => (e.kind === 'artifactUpdate' ? [[e.data.append, e.data.lastChunk]] : []));
    expect(chunks).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
    expect(states()).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
  });

  it('on cancel publishes CANCELED with the task context and stops the pending chunks and timers', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 0, chunkDelayMs: 1000 });
    const { bus, events, states } = recordingBus();
    const run = executor.execute(context(userMessage()), bus);
    await vi.advanceTimersByTimeAsync(0);
    expect(events.filter((e) => e.kind === 'artifactUpdate')).toHaveLength(1);

    await executor.cancelTask('task-1', bus);
    await run;
    expect(vi.getTimerCount()).toBe(0);
    await vi.runAllTimersAsync();
    expect(events.filter((e) => e.kind === 'artifactUpdate')).toHaveLength(1);
    expect(states()).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_CANCELED]);
    const canceled = events.at(-1);
    expect(canceled?.kind === 'statusUpdate' ? canceled.data.contextId : '').toBe('ctx-1');
  });

  it('keeps a never-finish task working until it is canceled', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 0, chunkDelayMs: 0 });
    const { bus, states } = recordingBus();
    let finished = false;
    const run = executor.execute(context(userMessage({ scenario: 'never-finish' })), bus).then(() => (finished = true));
    await vi.runAllTimersAsync();
    expect(finished).toBe(false);
    expect(states()).toEqual([TaskState.TASK_STATE_WORKING]);

    await executor.cancelTask('task-1', bus);
    await run;
    expect(states()).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_CANCELED]);
  });

  it('ends every running turn on dispose without publishing anything more', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 0, chunkDelayMs: 0 });
    const { bus, events } = recordingBus();
    const run = executor.execute(context(userMessage({ scenario: 'never-finish' })), bus);
    await vi.advanceTimersByTimeAsync(0);
    const published = events.length;
    executor.dispose();
    await run;
    expect(events).toHaveLength(published);
  });

  it('publishes nothing before ackDelayMs has passed (a slow acknowledgement)', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 0, chunkDelayMs: 0 });
    const { bus, events } = recordingBus();
    const run = executor.execute(context(userMessage({ ackDelayMs: 500 })), bus);
    await vi.advanceTimersByTimeAsync(499);
    expect(events).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(events[0]?.kind).toBe('task');
    await vi.runAllTimersAsync();
    await run;
  });

  it('replies with a message and no task in the message scenario', async () => {
    const executor = new SampleAgentExecutor(streamThree, { workDelayMs: 0, chunkDelayMs: 0 });
    const { bus, events } = recordingBus();
    await executor.execute(context(userMessage({ scenario: 'message' })), bus);
    expect(events.map((e) => e.kind)).toEqual(['message']);
  });

  it('fails the task when a skill returns without a result', async () => {
    const executor = new SampleAgentExecutor(async () => {}, { workDelayMs: 0, chunkDelayMs: 0 });
    const { bus, states } = recordingBus();
    await executor.execute(context(userMessage()), bus);
    expect(states()).toEqual([TaskState.TASK_STATE_FAILED]);
  });
});
