import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../../../bench/results.js';
import { checkTargets } from '../../../bench/targets.js';
import type { Summary } from '../../../bench/stats.js';

const p50 = (ms: number): Summary => ({ n: 30, p50: ms, p95: ms, mean: ms, min: ms, max: ms });

function run(mode: 'quick' | 'full', figures: Partial<BenchResults>): BenchResults {
  return {
    mode,
    started_at: '2026-12-02T00:00:00.000Z',
    machine: {
      cores: 2,
      cpu_model: 'test',
      memory_gb: 1,
      node: 'v20',
      kernel: 'linux',
      temporal_cli: '1.9.1',
      load_avg_start: 0,
    },
    settings: {},
    ...figures,
  };
}

const resultOf = (targets: ReturnType<typeof checkTargets>, prefix: string) =>
  targets.find((t) => t.target.startsWith(prefix))?.result;

const latency = {
  direct: p50(5),
  blocking_activity: p50(50),
  timer_poll: p50(70),
  delegate_stream: p50(54),
  delegate_poll: p50(70),
  delegate_push: p50(69),
};

describe('checkTargets', () => {
  it('judges the latency ratios against the issue limits', () => {
    const targets = checkTargets(run('full', { latency_ms: latency }));
    expect(targets.find((t) => t.target.startsWith('delegate_stream p50'))).toMatchObject({
      value: 1.08,
      limit: 1.1,
      result: 'PASS',
    });
    expect(resultOf(targets, 'delegate_poll p50')).toBe('FAIL'); // 1.4 > 1.25
    expect(resultOf(targets, 'delegate_push p50')).toBe('PASS'); // 69 / 70
  });

  it("shows a latency ratio's interval beside it and judges the ratio itself", () => {
    const targets = checkTargets(
      run('full', {
        latency_ms: latency,
        latency_ratio_interval: { 'delegate_stream/blocking_activity': [1.04, 1.13] },
      }),
    );
    expect(targets.find((t) => t.target.startsWith('delegate_stream p50'))).toMatchObject({
      value: 1.08,
      interval: [1.04, 1.13],
      result: 'PASS',
    });
    expect(targets.find((t) => t.target.startsWith('delegate_poll p50'))).not.toHaveProperty('interval');
  });

  it('says "not measured in quick mode" for c200 and the 10,000 parked, never PASS or FAIL', () => {
    const targets = checkTargets(
      run('quick', {
        throughput_per_s: { delegate_stream: { c50: 20 }, blocking_activity: { c50: 22 } },
        parked: {
          n: 1_000,
          worker_rss_mb: 300,
          idle_rss_mb: 200,
          rss_mb_per_1000: 100,
          cached_rss_mb: 300,
          rss_mb_per_1000_cached: 400,
          peak_rss_mb: 320,
          rss_after_drain_mb: 250,
          heap_used_mb: { idle: 1, parked: 2, drained: 1 },
          start_s: 10,
          drain_s: 10,
          max_cached_workflows: 250,
        },
      }),
    );
    expect(resultOf(targets, 'throughput delegate_stream / blocking_activity at c50')).toBe('PASS'); // 0.91
    expect(resultOf(targets, 'throughput delegate_stream / blocking_activity at c200')).toBe(
      'not measured in quick mode',
    );
    expect(resultOf(targets, '10000 parked')).toBe('not measured in quick mode');
  });

  it('judges a quick latency ratio only when its whole interval is on one side of the limit', () => {
    const targets = checkTargets(
      run('quick', {
        latency_ms: latency,
        latency_ratio_interval: {
          'delegate_stream/blocking_activity': [1.04, 1.13], // 1.08, holds 1.10
          'delegate_poll/blocking_activity': [1.3, 1.5], // 1.4, all above 1.25
          'delegate_push/delegate_poll': [0.95, 1], // 0.99, all at or below 1.00
        },
      }),
    );
    expect(targets.find((t) => t.target.startsWith('delegate_stream p50'))).toMatchObject({
      value: 1.08,
      interval: [1.04, 1.13],
      pass: null,
      result: 'not measured in quick mode',
    });
    expect(resultOf(targets, 'delegate_poll p50')).toBe('FAIL');
    expect(resultOf(targets, 'delegate_push p50')).toBe('PASS');
    const full = checkTargets(
      run('full', {
        latency_ms: latency,
        latency_ratio_interval: { 'delegate_stream/blocking_activity': [1.04, 1.13] },
      }),
    );
    expect(resultOf(full, 'delegate_stream p50')).toBe('PASS');
  });

  it('says "not run" for a target whose phase was left out, in either mode', () => {
    for (const mode of ['quick', 'full'] as const) {
      const targets = checkTargets(run(mode, {}));
      expect(resultOf(targets, 'delegate_stream p50')).toBe('not run');
      expect(resultOf(targets, 'memory per cached workflow')).toBe('not run');
    }
  });

  it('judges the 10,000-parked RSS only when that many were parked', () => {
    const parked = (n: number, rss: number) =>
      run('full', {
        parked: {
          n,
          worker_rss_mb: rss,
          idle_rss_mb: 200,
          rss_mb_per_1000: 0,
          cached_rss_mb: rss,
          rss_mb_per_1000_cached: 0,
          peak_rss_mb: rss,
          rss_after_drain_mb: rss,
          heap_used_mb: { idle: 1, parked: 1, drained: 1 },
          start_s: 1,
          drain_s: 1,
          max_cached_workflows: 1_000,
        },
      });
    expect(resultOf(checkTargets(parked(10_000, 480)), '10000 parked')).toBe('PASS');
    expect(resultOf(checkTargets(parked(10_000, 600)), '10000 parked')).toBe('FAIL');
    expect(resultOf(checkTargets(parked(2_000, 300)), '10000 parked')).toBe('not run');
  });

  it('judges history events and the lost time after a worker SIGKILL', () => {
    const targets = checkTargets(
      run('quick', {
        history_events: { stream_1s: 25, poll_1s: 34, push_1s: 40 },
        resume_after_kill: {
          resume_after_kill_s: 3.2,
          kill_points: {
            streaming: { lost_s: 3.2, disturbed_s: 5.2, killed_after_s: 1 },
            waiting: { lost_s: 1.1, disturbed_s: 3.1, killed_after_s: -0.1 },
          },
          heartbeat_timeout_s: 2,
          undisturbed_s: 2,
          replacement_ready_s: 1,
          heartbeats: { count: 3, per_s: 0.5, share_of_requests: 0.05 },
        },
      }),
    );
    expect(resultOf(targets, 'history events, one question: stream')).toBe('PASS');
    expect(resultOf(targets, 'history events, one question: poll')).toBe('FAIL');
    expect(resultOf(targets, 'history events, one question: push')).toBe('PASS');
    expect(resultOf(targets, 'worker SIGKILL')).toBe('FAIL');
  });
});
