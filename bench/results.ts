/** The shape of bench/results/latest.json. Figures a run skipped (`--only`) are absent. */
import type { ParkedMemory } from './figures.js';
import type { Anatomy } from './latency-anatomy.js';
import type { Machine } from './machine.js';
import type { HistoryShape } from './phases/history.js';
import type { LatencyRatio } from './phases/latency.js';
import type { ParkedFigures } from './phases/parked.js';
import type { HostilityFigures } from './phases/hostility.js';
import type { ReleaseFigures } from './phases/release.js';
import type { ResumeFigures } from './phases/resume.js';
import type { TracingFigures } from './phases/tracing.js';
import type { ThroughputResult } from './phases/throughput.js';
import type { Summary } from './stats.js';
import type { TemporalVariant, ThroughputVariant, Variant } from './variants/variant.js';

export interface BenchResults {
  mode: 'quick' | 'full';
  started_at: string;
  machine: Machine;
  /** How the figures were taken (counts, intervals, the dev server's dynamic config). */
  settings: Record<string, unknown>;
  latency_ms?: Record<Variant, Summary>;
  agent_requests_per_task?: Record<Variant, number>;
  agent_requests_by_route?: Record<Variant, Record<string, number>>;
  /** Per Temporal variant: the median ms of one delegation per step, from its history (latency-anatomy.ts). */
  latency_anatomy_ms?: Partial<Record<TemporalVariant, Anatomy>>;
  /** The 95 % interval of each latency ratio the targets judge (paired bootstrap over the latency phase's rounds). */
  latency_ratio_interval?: Partial<Record<LatencyRatio, [number, number]>>;
  /** Agent requests of one delegation whose remote task works 1 s (polling load on the agent). */
  agent_requests_per_task_1s?: Record<Variant, number>;
  /** Per Temporal variant: what one delegation costs in workflow and activity tasks. */
  round_trips?: Partial<Record<Variant, HistoryShape>>;
  /** `throughput_per_s.<variant>.c50` = delegations/s (workflows/s for `empty_workflow`); the details beside it. */
  throughput_per_s?: Partial<Record<ThroughputVariant, Record<string, number>>>;
  throughput_runs?: Partial<Record<ThroughputVariant, Record<string, ThroughputResult>>>;
  history_events?: Record<string, number>;
  parked?: ParkedFigures;
  /** The same, with the delegations in push mode (their tasks followed by webhook deliveries). */
  parked_push?: ParkedFigures;
  /** The same number of minimal workflows (bare/workflows.ts) waiting for their signal in a bare-SDK worker. */
  parked_bare?: ParkedFigures;
  /** MB per 1,000 cached workflows, ours (`parked`) and the bare-SDK worker's, and their ratio. */
  parked_memory?: ParkedMemory;
  /** With `--parked-baseline`: the same number of `blocking_activity` workflows waiting for their signal. */
  parked_blocking_activity?: ParkedFigures;
  resume_after_kill_s?: number;
  resume_after_kill?: ResumeFigures;
  /** 100 ordinary delegations beside 10 hostile agents on one worker; the largest attacks alone. */
  hostility?: HostilityFigures;
  /** delegate_stream without telemetry built in, with tracing off (no OTEL_* variable) and on (OTLP export, traced client). */
  tracing?: TracingFigures;
  /** A release with three agents, answered and approved by script, one at a time. */
  release?: ReleaseFigures;
  targets?: TargetResult[];
}

export interface TargetResult {
  target: string;
  value: number | null;
  limit: number | null;
  unit: string;
  /** null when the run did not produce what the target needs. */
  pass: boolean | null;
  /** The value's 95 % interval, where the run can tell (the latency ratios); the result judges the value itself. */
  interval?: [number, number];
  /** What the report prints. */
  result: 'PASS' | 'FAIL' | 'not measured in quick mode' | 'not run';
}
