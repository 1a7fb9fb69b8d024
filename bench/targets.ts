/** The targets, checked against a run's figures. */
import type { BenchResults, TargetResult } from './results.js';
import { round } from './stats.js';

export function checkTargets(r: BenchResults): TargetResult[] {
  const targets: TargetResult[] = [];
  const add = (
    target: string,
    unit: string,
    value: number | undefined,
    limit: number | undefined,
    pass: (v: number, l: number) => boolean,
  ) => {
    const known = value !== undefined && limit !== undefined && Number.isFinite(value) && Number.isFinite(limit);
    targets.push({
      target,
      unit,
      value: known ? value : null,
      limit: known ? limit : null,
      pass: known ? pass(value, limit) : null,
    });
  };
  const atMost = (v: number, l: number) => v <= l;
  const equal = (v: number, l: number) => v === l;

  const lat = r.latency_ms;
  add(
    'delegate_stream p50 <= 1.25 x blocking_activity p50',
    'ms',
    lat?.delegate_stream.p50,
    lat && round(1.25 * lat.blocking_activity.p50),
    atMost,
  );
  const h = r.history_events;
  add('history_events.poll_30s == poll_1s', 'events', h?.poll_30s, h?.poll_1s, equal);
  add('history_events.stream_30s == stream_1s', 'events', h?.stream_30s, h?.stream_1s, equal);
  add('parked.rss_mb_per_1000 <= 150', 'MB', r.parked?.rss_mb_per_1000, r.parked && 150, atMost);
  add('parked_push.rss_mb_per_1000 <= 150', 'MB', r.parked_push?.rss_mb_per_1000, r.parked_push && 150, atMost);
  const resume = r.resume_after_kill;
  add(
    'resume_after_kill_s <= heartbeat timeout + 2 s',
    's',
    resume?.resume_after_kill_s,
    resume && resume.heartbeat_timeout_s + 2,
    atMost,
  );
  const hostility = r.hostility;
  add('hostility: worker event-loop stall <= 100 ms', 'ms', hostility?.event_loop_max_ms, hostility && 100, atMost);
  add(
    'hostility: every ordinary delegation completes',
    'delegations',
    hostility?.normal_completed,
    hostility?.normal_total,
    equal,
  );
  const req = r.agent_requests_per_task;
  add(
    'agent_requests_per_task delegate_stream <= blocking_activity + 2',
    'requests',
    req?.delegate_stream,
    req && req.blocking_activity + 2,
    atMost,
  );
  return targets;
}
