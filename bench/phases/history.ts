/**
 * `history_events`: events in one delegation's history when the remote task works 1 s and 30 s
 * (the agent's `workDelayMs` switch), per Temporal variant. The 1 s delegations run one after
 * another, so the agent's requests can be counted per delegation too (`agent_requests_per_task_1s`);
 * the 30 s ones run all at once, in the background of the phases that follow.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { RunningAgent } from '../../agents/index.js';
import type { RemoteDelays } from '../scenario.js';
import type { DirectDelegation } from '../variants/direct.js';
import { answerAndFinish, startDelegation, type TemporalRun } from '../variants/temporal.js';
import { VARIANTS, type TemporalVariant, type Variant } from '../variants/variant.js';

/** The figure's name for a variant (`poll_1s`, `stream_30s`, `timer_poll_1s`…). */
const NAMES: Record<TemporalVariant, string> = {
  delegate_poll: 'poll',
  delegate_push: 'push',
  delegate_stream: 'stream',
  timer_poll: 'timer_poll',
  blocking_activity: 'blocking_activity',
};

export const HISTORY_VARIANTS: readonly TemporalVariant[] = [
  'delegate_poll',
  'delegate_stream',
  'delegate_push',
  'timer_poll',
  'blocking_activity',
];

const key = (variant: TemporalVariant, workDelayMs: number) => `${NAMES[variant]}_${workDelayMs / 1000}s`;
const delays = (workDelayMs: number): RemoteDelays => ({ workDelayMs, chunkDelayMs: 0 });

async function eventsOf(run: TemporalRun, variant: TemporalVariant, workDelayMs: number): Promise<number> {
  const handle = await startDelegation(run, variant, delays(workDelayMs));
  await answerAndFinish(run, handle);
  return (await historyShape(handle)).events;
}

/** Every variant once, one after another: history events (Temporal variants) and agent requests. */
export async function measureOneByOne(
  run: TemporalRun,
  direct: DirectDelegation,
  agent: RunningAgent,
  workDelayMs: number,
): Promise<{ history: Record<string, number>; requests: Record<Variant, number> }> {
  const history: Record<string, number> = {};
  const requests = {} as Record<Variant, number>;
  for (const variant of VARIANTS) {
    const before = agent.stats.requests;
    if (variant === 'direct') await direct(delays(workDelayMs));
    else history[key(variant, workDelayMs)] = await eventsOf(run, variant, workDelayMs);
    requests[variant] = agent.stats.requests - before;
  }
  return { history, requests };
}

/** Every Temporal variant at once: history events only. */
export async function measureAllAtOnce(run: TemporalRun, workDelayMs: number): Promise<Record<string, number>> {
  const counts = await Promise.all(HISTORY_VARIANTS.map((v) => eventsOf(run, v, workDelayMs)));
  return Object.fromEntries(HISTORY_VARIANTS.map((v, i) => [key(v, workDelayMs), counts[i]!]));
}

/** What one delegation costs in server round trips: workflow tasks and activity tasks in its history. */
export interface HistoryShape {
  events: number;
  workflow_tasks: number;
  activity_tasks: number;
  timers: number;
}

export async function historyShape(handle: WorkflowHandle): Promise<HistoryShape> {
  const events = (await handle.fetchHistory()).events ?? [];
  return {
    events: events.length,
    workflow_tasks: events.filter((e) => e.workflowTaskCompletedEventAttributes).length,
    activity_tasks: events.filter((e) => e.activityTaskScheduledEventAttributes).length,
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
  };
}
