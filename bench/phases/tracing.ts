/**
 * `tracing_ms`: what tracing costs a delegation. The same `delegate_stream` delegation, one at a
 * time, on two workers of the same build: one without any OTEL_* variable (tracing off, as
 * shipped), one exporting spans over OTLP/HTTP with the SDK's default batching, driven by a
 * client that traces too (so the whole trace is made: client, workflow, activities, A2A
 * requests, the agent's side). The two are interleaved round by round, so a slow patch of the
 * machine hits both alike.
 */
import type { RunningAgent } from '../../agents/index.js';
import { round, summarize, type Summary } from '../stats.js';
import { temporalDelegation, type TemporalRun } from '../variants/temporal.js';

export interface TracingFigures {
  tracing_ms: { off: Summary; on: Summary };
  /** (on p50 − off p50) / off p50, in percent. */
  tracing_overhead_p50_pct: number;
  /** Spans exported per traced delegation (all processes), and the bytes they took on the wire. */
  spans_exported: { requests: number; bytes_per_delegation: number };
}

export interface TracingOptions {
  off: TemporalRun;
  on: TemporalRun;
  agent: RunningAgent;
  warmup: number;
  count: number;
  /** What the OTLP endpoint received so far. */
  exported: () => { requests: number; bytes: number };
  log: (line: string) => void;
}

export async function measureTracing(o: TracingOptions): Promise<TracingFigures> {
  const samples = { off: [] as number[], on: [] as number[] };
  let bytesBefore = 0;
  for (let r = 0; r < o.warmup + o.count; r++) {
    if (r === o.warmup) bytesBefore = o.exported().bytes;
    for (const which of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const started = performance.now();
      await temporalDelegation(which === 'off' ? o.off : o.on, 'delegate_stream');
      if (r >= o.warmup) samples[which].push(performance.now() - started);
    }
    if ((r + 1) % 10 === 0) o.log(`tracing: round ${r + 1}/${o.warmup + o.count}`);
  }
  const off = summarize(samples.off);
  const on = summarize(samples.on);
  // Spans leave in batches (every 5 s by default): wait until the last ones have arrived.
  let exported = o.exported();
  for (let quiet = 0; quiet < 7; quiet++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = o.exported();
    if (now.bytes !== exported.bytes) quiet = 0;
    exported = now;
  }
  return {
    tracing_ms: { off, on },
    tracing_overhead_p50_pct: round(((on.p50 - off.p50) / off.p50) * 100),
    spans_exported: {
      requests: exported.requests,
      bytes_per_delegation: round((exported.bytes - bytesBefore) / o.count, 0),
    },
  };
}
