/**
 * The targets (issue 25, "Targets (full mode)"), checked against a run's figures. A
 * target whose figure quick mode does not produce (c200, 10,000 parked) says "not measured in
 * quick mode" there, never PASS or FAIL, and so does a latency ratio whose 95 % interval holds its
 * limit in quick mode (30 rounds cannot tell which side it is on; the full run's 200 judge the
 * ratio itself); one whose phase was left out (`--only`) says "not run".
 */
import type { LatencyRatio } from './phases/latency.js';
import type { BenchResults, TargetResult } from './results.js';
import { round } from './stats.js';
import { throughputRatios } from './figures.js';
import type { Variant } from './variants/variant.js';

/** The limit for each latency ratio the latency phase measures (`a/b`: p50 of a / p50 of b). */
const LATENCY_LIMITS: Record<LatencyRatio, number> = {
  'delegate_stream/blocking_activity': 1.1,
  'delegate_poll/blocking_activity': 1.25,
  'delegate_push/delegate_poll': 1,
};

/** How many parked delegations the RSS target is about, and its limit. */
export const PARKED_TARGET = { count: 10_000, rssMb: 512 };

export function checkTargets(r: BenchResults): TargetResult[] {
  const quick = r.mode === 'quick';
  const targets: TargetResult[] = [];
  const add = (
    target: string,
    unit: string,
    value: number | undefined,
    limit: number | undefined,
    pass: (v: number, l: number) => boolean,
    /** false: quick mode does not produce this figure (or not at the size the target is about). */
    inQuick = true,
    interval?: [number, number],
  ) => {
    if (quick && !inQuick) {
      targets.push({ target, unit, value: null, limit: null, pass: null, result: 'not measured in quick mode' });
      return;
    }
    const known = value !== undefined && limit !== undefined && Number.isFinite(value) && Number.isFinite(limit);
    // Quick mode's 30 rounds cannot place a ratio whose interval holds the limit on either side of it.
    const undecided = quick && known && interval !== undefined && pass(interval[0], limit) !== pass(interval[1], limit);
    const passed = known && !undecided ? pass(value, limit) : null;
    targets.push({
      target,
      unit,
      value: known ? value : null,
      limit: known ? limit : null,
      pass: passed,
      ...(known && interval ? { interval } : {}),
      result: undecided ? 'not measured in quick mode' : passed === null ? 'not run' : passed ? 'PASS' : 'FAIL',
    });
  };
  const atMost = (v: number, l: number) => v <= l;
  const atLeast = (v: number, l: number) => v >= l;
  const equal = (v: number, l: number) => v === l;
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? undefined : round(a / b, 2);

  const lat = r.latency_ms;
  const within = r.latency_ratio_interval ?? {};
  for (const [name, limit] of Object.entries(LATENCY_LIMITS) as [LatencyRatio, number][]) {
    const [a, b] = name.split('/') as [Variant, Variant];
    add(
      `${a} p50 / ${b} p50 <= ${limit.toFixed(2)}`,
      'x',
      ratio(lat?.[a].p50, lat?.[b].p50),
      lat && limit,
      atMost,
      true,
      within[name],
    );
  }
  const tp = throughputRatios(r.throughput_per_s);
  for (const level of ['c50', 'c200'])
    add(
      `throughput delegate_stream / blocking_activity at ${level} >= 0.80`,
      'x',
      tp[level],
      r.throughput_per_s && 0.8,
      atLeast,
      level === 'c50',
    );
  const h = r.history_events;
  add('history events, one question: stream <= 25', 'events', h?.stream_1s, h && 25, atMost);
  add('history events, one question: poll <= 33', 'events', h?.poll_1s, h && 33, atMost);
  add('history events, one question: push <= 40', 'events', h?.push_1s, h && 40, atMost);
  add('history_events.poll_30s == poll_1s', 'events', h?.poll_30s, h?.poll_1s, equal);
  add('history_events.stream_30s == stream_1s', 'events', h?.stream_30s, h?.stream_1s, equal);
  add(
    'worker SIGKILL -> result lost time <= 3 s',
    's',
    r.resume_after_kill?.resume_after_kill_s,
    r.resume_after_kill && 3,
    atMost,
  );
  const mem = r.parked_memory;
  add('memory per cached workflow, ours / bare SDK worker <= 1.2', 'x', mem?.ratio_to_bare, mem && 1.2, atMost);
  const parked = r.parked;
  add(
    `${PARKED_TARGET.count} parked delegations on one worker (cache bounded): RSS <= ${PARKED_TARGET.rssMb} MB`,
    'MB',
    parked && parked.n >= PARKED_TARGET.count ? parked.worker_rss_mb : undefined,
    parked && PARKED_TARGET.rssMb,
    atMost,
    false,
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
