/**
 * A delegation's history over all its runs (continue-as-new included), summed up from event
 * types alone: activity type names are read from the events, never assumed.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

export interface HistorySummary {
  runs: number;
  continuedAsNew: number;
  events: number;
  /** The largest history of one run: what a replay reads. */
  maxEventsPerRun: number;
  /** Activity tasks scheduled, by activity type. */
  activities: Record<string, number>;
  /** Local activities (marker events). */
  localActivities: number;
  /** Attempts after the first (a dead worker's activity is retried after its heartbeat timeout). */
  retries: number;
  /** Activities that ended timed out or failed (after their last attempt). */
  activityTimeouts: number;
  activityFailures: number;
}

export async function historySummary(client: Client, workflowId: string, firstRunId: string): Promise<HistorySummary> {
  const summary: HistorySummary = {
    runs: 0,
    continuedAsNew: 0,
    events: 0,
    maxEventsPerRun: 0,
    activities: {},
    localActivities: 0,
    retries: 0,
    activityTimeouts: 0,
    activityFailures: 0,
  };
  for (let runId: string | undefined = firstRunId; runId;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    summary.runs += 1;
    summary.events += events.length;
    summary.maxEventsPerRun = Math.max(summary.maxEventsPerRun, events.length);
    runId = undefined;
    for (const event of events) {
      const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
      if (type) summary.activities[type] = (summary.activities[type] ?? 0) + 1;
      if (event.markerRecordedEventAttributes) summary.localActivities += 1;
      summary.retries += Math.max(0, (event.activityTaskStartedEventAttributes?.attempt ?? 1) - 1);
      if (event.activityTaskTimedOutEventAttributes) summary.activityTimeouts += 1;
      if (event.activityTaskFailedEventAttributes) summary.activityFailures += 1;
      const next: string | null | undefined = event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (next) {
        summary.continuedAsNew += 1;
        runId = next;
      }
    }
  }
  return summary;
}
