/** The markdown tables a run prints on stdout (and bench/README.md shows). */
import type { BenchResults, TargetResult } from './results.js';
import { throughputRatios } from './figures.js';
import { ANATOMY_STEPS } from './latency-anatomy.js';
import { round } from './stats.js';
import { VARIANTS } from './variants/variant.js';

export function markdownReport(r: BenchResults): string {
  const m = r.machine;
  const out: string[] = [
    `### Bench (${r.mode}) — ${m.cores} cores (${m.cpu_model}), ${m.memory_gb} GB, Node ${m.node}, Temporal CLI ${m.temporal_cli}, wall time ${formatDuration(m.wall_time_s)}, load average ${m.load_avg_start} → ${m.load_avg_end ?? '?'}`,
    '',
  ];

  if (r.latency_ms || r.throughput_per_s) {
    const levels = [...new Set(Object.values(r.throughput_per_s ?? {}).flatMap((t) => Object.keys(t ?? {})))];
    out.push(
      table(
        [
          'variant',
          'p50 ms',
          'p95 ms',
          ...levels.map((c) => `${c} /s`),
          'agent requests/task',
          'workflow tasks',
          'activity tasks',
        ],
        [...VARIANTS, ...(r.throughput_per_s?.empty_workflow ? (['empty_workflow'] as const) : [])].map((v) => {
          const temporal = v !== 'direct' && v !== 'empty_workflow';
          return [
            v,
            fmt(v === 'empty_workflow' ? undefined : r.latency_ms?.[v]?.p50),
            fmt(v === 'empty_workflow' ? undefined : r.latency_ms?.[v]?.p95),
            ...levels.map((c) =>
              fmt((r.throughput_per_s as Record<string, Record<string, number>> | undefined)?.[v]?.[c]),
            ),
            fmt(v === 'empty_workflow' ? undefined : r.agent_requests_per_task?.[v]),
            temporal ? fmt(r.round_trips?.[v]?.workflow_tasks) : '—',
            temporal ? fmt(r.round_trips?.[v]?.activity_tasks) : '—',
          ];
        }),
      ),
      '',
    );
    const anatomy = Object.entries(r.latency_anatomy_ms ?? {});
    if (anatomy.length)
      out.push(
        "Where a delegation's time goes (median ms per delegation, from its history: each gap between two events charged to the step the later one ends; `answer`: the client learning of the question and signalling):",
        '',
        table(
          ['variant', ...ANATOMY_STEPS.map((s) => s.replaceAll('_', ' ')), 'history span'],
          anatomy.map(([v, a]) => [v, ...ANATOMY_STEPS.map((s) => fmt(a[s])), fmt(a.span)]),
        ),
        '',
      );
    const ratios = Object.entries(throughputRatios(r.throughput_per_s));
    if (ratios.length)
      out.push(
        `Throughput delegate_stream / blocking_activity: ${ratios.map(([c, x]) => `${x} at ${c}`).join(', ')} (empty_workflow: a workflow that returns at once, the ceiling of this server and worker).`,
        '',
      );
    const costs = Object.entries(r.throughput_runs ?? {}).flatMap(([v, levels]) =>
      Object.entries(levels ?? {}).flatMap(([c, run]) => {
        const d = run.per_delegation;
        return d?.server_cpu_ms === undefined ? [] : [[`${v} ${c}`, fmt(d.server_cpu_ms), fmt(d.worker_cpu_ms)]];
      }),
    );
    if (costs.length)
      out.push(table(['throughput run', 'server CPU ms/delegation', 'worker CPU ms/delegation'], costs), '');
  }

  if (r.tracing) {
    const t = r.tracing;
    out.push(
      table(
        ['delegate_stream', 'p50 ms', 'p95 ms', 'mean ms', 'n'],
        (['untraced', 'off', 'on'] as const).map((k) => [
          k === 'untraced' ? 'no telemetry built in' : `tracing ${k}`,
          fmt(t.tracing_ms[k].p50),
          fmt(t.tracing_ms[k].p95),
          fmt(t.tracing_ms[k].mean),
          fmt(t.tracing_ms[k].n),
        ]),
      ),
      '',
      `Tracing off (as shipped) costs ${t.tracing_off_overhead_p50_pct} % at p50 against a build without telemetry; on costs ${t.tracing_overhead_p50_pct} % against off; ${t.spans_exported.bytes_per_delegation} bytes of OTLP per traced delegation (${t.spans_exported.requests} export requests).`,
      '',
    );
  }

  if (r.history_events) {
    const h = r.history_events;
    const kinds = [...new Set(Object.keys(h).map((k) => k.replace(/_\d+s$/, '')))];
    const durations = [...new Set(Object.keys(h).map((k) => /_(\d+s)$/.exec(k)?.[1] ?? ''))];
    out.push(
      table(
        ['history events', ...durations.map((d) => `remote task ${d}`)],
        kinds.map((k) => [k, ...durations.map((d) => fmt(h[`${k}_${d}`]))]),
      ),
      '',
    );
  }

  const rows: string[][] = [];
  for (const [label, p] of [
    ['parked', r.parked],
    ['parked (push mode)', r.parked_push],
    ['parked (blocking_activity baseline)', r.parked_blocking_activity],
    ['parked (bare-SDK worker, minimal workflow)', r.parked_bare],
  ] as const) {
    if (!p) continue;
    rows.push([
      `${label}: ${p.n} waiting for their answer`,
      `worker RSS ${p.worker_rss_mb} MB (idle ${p.idle_rss_mb} MB, peak ${p.peak_rss_mb} MB) → ${p.rss_mb_per_1000_cached} MB per 1000 cached, ${p.rss_mb_per_1000} MB per 1000 parked; all parked in ${p.start_s} s (${rate(p.n, p.start_s)}/s); all answered and completed in ${p.drain_s} s (${rate(p.n, p.drain_s)}/s) (workflow cache ${p.max_cached_workflows})`,
    ]);
  }
  if (r.parked_memory) {
    const m = r.parked_memory;
    rows.push([
      'memory per cached workflow',
      `ours ${m.ours_mb_per_1000_cached} MB per 1000 cached, a bare-SDK worker ${m.bare_mb_per_1000_cached} MB per 1000 cached: ${m.ratio_to_bare}× (workflow cache ${m.cache})`,
    ]);
  }
  if (r.release) {
    const m = r.release.release_ms;
    const a = r.release.activities;
    rows.push([
      'release: three agents, answered and approved by script',
      `p50 ${m.p50} ms, p95 ${m.p95} ms over ${m.n} releases (status read every ${r.release.poll_interval_ms} ms); ${a.count} activities (the releases' and their delegations'), scheduled to result taken p50 ${a.scheduled_to_taken_ms.p50} ms, of which running p50 ${a.run_ms.p50} ms: ${Math.round(a.between_share * 1000) / 10} % of activity time spent between workflow and activities`,
    ]);
  }
  if (r.resume_after_kill) {
    const k = r.resume_after_kill;
    rows.push([
      'resume_after_kill_s',
      `${k.resume_after_kill_s} s, the worst of: killed while streaming ${k.kill_points.streaming.lost_s} s (${k.kill_points.streaming.killed_after_s} s after the answer), killed while waiting for the answer ${k.kill_points.waiting.lost_s} s (answer → result ${k.undisturbed_s} s undisturbed; a second worker polling; heartbeat timeout ${k.heartbeat_timeout_s} s; a new worker process takes ${k.replacement_ready_s} s to start)`,
    ]);
    rows.push([
      'heartbeats',
      `${k.heartbeats.count} in one delegation (${k.heartbeats.per_s}/s), ${round(k.heartbeats.share_of_requests * 100, 1)} % of the server's requests meanwhile`,
    ]);
  }
  if (r.hostility) {
    const h = r.hostility;
    rows.push([
      `hostility: ${h.normal_total} delegations beside ${Object.keys(h.hostile).length} hostile agents`,
      `${h.normal_completed} completed in ${h.wall_s} s; worker event loop max ${h.event_loop_max_ms} ms, p99 ${h.event_loop_p99_ms} ms; ${Object.entries(
        h.hostile,
      )
        .map(([name, o]) => `${name} → ${o.code} in ${o.seconds} s`)
        .join(', ')}`,
    ]);
    for (const [name, o] of Object.entries(h.alone)) {
      rows.push([
        `hostility: ${name} alone`,
        `${o.code} in ${o.seconds} s; worker peak RSS ${o.peak_rss_mb} MB (idle ${o.idle_rss_mb} MB); event loop max ${o.event_loop_max_ms} ms, p99 ${o.event_loop_p99_ms} ms`,
      ]);
    }
  }
  if (rows.length) out.push(table(['figure', 'value'], rows), '');

  if (r.targets) out.push(table(['target', 'value', 'limit', 'result'], r.targets.map(targetRow)), '');
  return out.join('\n');
}

function targetRow(t: TargetResult): string[] {
  const unit = (v: number | null) => (v === null ? 'n/a' : `${v} ${t.unit}`);
  const value = t.interval ? `${unit(t.value)} (95 %: ${t.interval[0]}-${t.interval[1]})` : unit(t.value);
  return [t.target, value, unit(t.limit), t.result];
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function rate(n: number, seconds: number): string {
  return seconds > 0 ? String(round(n / seconds)) : '—';
}

function fmt(v: number | undefined): string {
  return v === undefined || Number.isNaN(v) ? '—' : String(v);
}

function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined) return '?';
  const m = Math.floor(seconds / 60);
  return m ? `${m} min ${Math.round(seconds - m * 60)} s` : `${Math.round(seconds)} s`;
}
