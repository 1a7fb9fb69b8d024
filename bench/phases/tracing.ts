/**
 * `tracing_ms`: what tracing costs a delegation. The same `delegate_stream` delegation, one at a
 * time, on three workers: one built without any telemetry (no interceptors in the plugin or the
 * workflow bundle: the baseline), one as shipped without any OTEL_* variable (tracing off), and
 * one exporting spans over OTLP/HTTP with the SDK's default batching, driven by a client that
 * traces too (so the whole trace is made: client, workflow, activities, A2A requests, the
 * agent's side). The three are interleaved round by round, in a rotating order, so a slow patch
 * of the machine hits all alike.
 */
import type { RunningAgent } from '../../agents/index.js';
import { round, summarize, type Summary } from '../stats.js';
import { temporalDelegation, type TemporalRun } from '../variants/temporal.js';

const VARIANTS = ['untraced', 'off', 'on'] as const;
type Variant = (typeof VARIANTS)[number];

export interface TracingFigures {
  tracing_ms: Record<Variant, Summary>;
  /** (off p50 − untraced p50) / untraced p50, in percent: what shipping the telemetry costs when it is off. */
  tracing_off_overhead_p50_pct: number;
  /** (on p50 − off p50) / off p50, in percent. */
  tracing_overhead_p50_pct: number;
  /** Spans exported per traced delegation (all processes), and the bytes they took on the wire. */
  spans_exported: { requests: number; bytes_per_delegation: number };
}

export interface TracingOptions extends Record<Variant, TemporalRun> {
  agent: RunningAgent;
  warmup: number;
  count: number;
  /** What the OTLP endpoint received so far. */
  exported: () => { requests: number; bytes: number };
  log: (line: string) => void;
}

export async function measureTracing(o: TracingOptions): Promise<TracingFigures> {
  const samples: Record<Variant, number[]> = { untraced: [], off: [], on: [] };
  let bytesBefore = 0;
  for (let r = 0; r < o.warmup + o.count; r++) {
    if (r === o.warmup) bytesBefore = o.exported().bytes;
    for (let i = 0; i < VARIANTS.length; i++) {
      const which = VARIANTS[(r + i) % VARIANTS.length]!;
      const started = performance.now();
      await temporalDelegation(o[which], 'delegate_stream');
      if (r >= o.warmup) samples[which].push(performance.now() - started);
    }
    if ((r + 1) % 10 === 0) o.log(`tracing: round ${r + 1}/${o.warmup + o.count}`);
  }
  const ms = { untraced: summarize(samples.untraced), off: summarize(samples.off), on: summarize(samples.on) };
  // Spans leave in batches (every 5 s by default): wait until the last ones have arrived.
  let exported = o.exported();
  for (let quiet = 0; quiet < 7; quiet++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = o.exported();
    if (now.bytes !== exported.bytes) quiet = 0;
    exported = now;
  }
  const overhead = (more: Summary, base: Summary): number => round(((more.p50 - base.p50) / base.p50) * 100);
  return {
    tracing_ms: ms,
    tracing_off_overhead_p50_pct: overhead(ms.off, ms.untraced),
    tracing_overhead_p50_pct: overhead(ms.on, ms.off),
    spans_exported: {
      requests: exported.requests,
      bytes_per_delegation: round((exported.bytes - bytesBefore) / o.count, 0),
    },
  };
}
