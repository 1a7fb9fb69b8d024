/**
 * `latency_anatomy_ms`: where one delegation's time goes, from its history's event times. Each
 * gap between two events is charged to the step the later event ends (a workflow task waiting
 * in its queue, then running on the worker; an activity task waiting, then running; the client
 * learning of the question and signalling its answer; a timer), summed per delegation; the
 * figure is the median of those sums over the latency phase's delegations, per variant. Medians
 * of the parts need not add up to the median `span`.
 */
import type { temporal } from '@temporalio/proto';
import { percentile, round } from './stats.js';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export const ANATOMY_STEPS = [
  'workflow_task_queue',
  'workflow_task_run',
  'activity_queue',
  'activity_run',
  'answer',
  'timer',
  'other',
] as const;
export type AnatomyStep = (typeof ANATOMY_STEPS)[number];

/** Per step, ms of one delegation (or the median over many); `span`: first event to last. */
export type Anatomy = Record<AnatomyStep | 'span', number>;
const FIGURES = [...ANATOMY_STEPS, 'span'] as const;

/** The step the gap ending at `event` belongs to. */
function stepOf(event: HistoryEvent): AnatomyStep {
  if (event.workflowTaskStartedEventAttributes) return 'workflow_task_queue';
  if (event.workflowTaskCompletedEventAttributes) return 'workflow_task_run';
  if (event.activityTaskStartedEventAttributes) return 'activity_queue';
  if (event.activityTaskCompletedEventAttributes || event.activityTaskFailedEventAttributes) return 'activity_run';
  if (event.workflowExecutionSignaledEventAttributes || event.workflowExecutionUpdateAcceptedEventAttributes)
    return 'answer';
  if (event.timerFiredEventAttributes) return 'timer';
  return 'other';
}

function epochMs(event: HistoryEvent): number {
  const t = event.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

/** One delegation's history, charged step by step. */
export function anatomyOf(events: readonly HistoryEvent[]): Anatomy {
  const sums = Object.fromEntries(FIGURES.map((f) => [f, 0])) as Anatomy;
  for (let i = 1; i < events.length; i++) sums[stepOf(events[i]!)] += epochMs(events[i]!) - epochMs(events[i - 1]!);
  if (events.length > 1) sums.span = epochMs(events.at(-1)!) - epochMs(events[0]!);
  return sums;
}

/** The median of each step over many delegations (0.01 ms resolution). */
export function medianAnatomy(anatomies: readonly Anatomy[]): Anatomy {
  const median = (f: keyof Anatomy) => {
    const values = anatomies.map((a) => a[f]);
    return round(percentile(values, 50), 2);
  };
  return Object.fromEntries(FIGURES.map((f) => [f, median(f)])) as Anatomy;
}
