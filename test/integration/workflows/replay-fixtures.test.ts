/**
 * Histories recorded from real runs (test/fixtures/histories, see record-histories.ts there)
 * replay against today's workflow code without a determinism error.
 *
 * The policy, in two periods:
 * - Before the first published version nobody runs our workflows but us: a redesign that alters
 *   the commands of a recorded run re-records the fixtures (`npm run record-histories`) in the
 *   same change, and the code carries no patch marker and no old branch.
 * - From the first published version on, the runs open in a user's cluster when a worker is
 *   upgraded must go on: a change that alters the commands of a recorded run goes behind
 *   `patched()`, and a failing replay here is never fixed by recording the fixture again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';
import { temporalServer } from '../../helpers/temporal.js';

const folder = join(packageRoot, 'test', 'fixtures', 'histories');
const workflowIds = JSON.parse(readFileSync(join(folder, 'workflow-ids.json'), 'utf8')) as Record<string, string>;
const fixtures = readdirSync(folder)
  .filter((file) => file.endsWith('.json') && file !== 'workflow-ids.json')
  .sort();

interface HistoryEvent {
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  markerRecordedEventAttributes?: { markerName?: string; details?: Record<string, { payloads?: { data?: string }[] }> };
}

function eventsOf(file: string): HistoryEvent[] {
  return (JSON.parse(readFileSync(join(folder, file), 'utf8')) as { events: HistoryEvent[] }).events;
}

/** The activity types a history schedules: activities, and local activities (recorded as markers). */
function activityTypes(events: HistoryEvent[]): string[] {
  return events.flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (scheduled) return [scheduled];
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_local_activity' ? marker.details?.data?.payloads?.[0]?.data : undefined;
    if (!data) return [];
    return [(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { activity_type: string }).activity_type];
  });
}

describe('recorded histories', () => {
  it('include stream, poll and push runs, questions, cancellations, deadlines, continue-as-new and a release', () => {
    const names = fixtures.join(' ');
    for (const kind of ['stream', 'poll', 'push', 'auth-resumed-by-agent', 'canceled', 'deadline', 'timeout'])
      expect(names).toContain(kind);
    for (const kind of ['continued', 'release']) expect(names).toContain(kind);
  });

  it('schedule only our a2a.-prefixed activities (the names the plugin registers)', () => {
    const foreign = fixtures.flatMap((file) =>
      activityTypes(eventsOf(file))
        .filter((type) => !type.startsWith('a2a.'))
        .map((type) => `${file}: ${type}`),
    );
    expect(foreign).toEqual([]);
    // Per delegation: a run that continued as new while it waited for an answer schedules nothing.
    const scenarios = new Map<string, number>();
    for (const file of fixtures.filter((f) => f.startsWith('delegate-'))) {
      const scenario = file.replace(/(\.\d+)?\.json$/, '');
      scenarios.set(scenario, (scenarios.get(scenario) ?? 0) + activityTypes(eventsOf(file)).length);
    }
    expect([...scenarios].filter(([, count]) => count === 0)).toEqual([]);
  });

  it('replay against the current workflow code without a determinism error', async () => {
    const histories = fixtures.map((file) => ({
      workflowId: workflowIds[file] ?? file,
      history: JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown,
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { codePath: temporalServer().workflowBundlePath } },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
  });
});
