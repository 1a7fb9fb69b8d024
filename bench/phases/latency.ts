/**
 * `latency_ms` and `agent_requests_per_task`: one delegation at a time, the variants interleaved
 * round by round (the order rotates each round), so a slow patch of the machine hits them all
 * alike. The agent's request counter is read around each delegation. Afterwards, each Temporal
 * delegation's history gives `latency_anatomy_ms` (latency-anatomy.ts).
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { RunningAgent } from '../../agents/index.js';
import { anatomyOf, medianAnatomy, type Anatomy } from '../latency-anatomy.js';
import { medianRatioInterval, round, summarize, type Summary } from '../stats.js';
import { VARIANTS, type TemporalVariant, type Variant } from '../variants/variant.js';

export interface LatencyFigures {
  latency_ms: Record<Variant, Summary>;
  agent_requests_per_task: Record<Variant, number>;
  /** Per variant: requests per delegation by route (`POST /a2a/rest/message:send`…). */
  agent_requests_by_route: Record<Variant, Record<string, number>>;
  /** Per Temporal variant: the median ms per step of one delegation, from its history. */
  latency_anatomy_ms: Partial<Record<TemporalVariant, Anatomy>>;
  /** The 95 % interval of each ratio the targets judge (paired bootstrap over the rounds, stats.ts). */
  latency_ratio_interval: Record<LatencyRatio, [number, number]>;
}

/** The p50 ratios the issue sets targets for: `delegate_stream/blocking_activity`… */
export const LATENCY_RATIOS = [
  ['delegate_stream', 'blocking_activity'],
  ['delegate_poll', 'blocking_activity'],
  ['delegate_push', 'delegate_poll'],
] as const;
/** `a/b` for each pair (distributed over the union: those three, not every combination). */
type Joined<P> = P extends readonly [infer A extends string, infer B extends string] ? `${A}/${B}` : never;
export type LatencyRatio = Joined<(typeof LATENCY_RATIOS)[number]>;

export interface LatencyOptions {
  /** One delegation of the variant; a Temporal variant's handle, so its history can be read. */
  run: Record<Variant, () => Promise<WorkflowHandle | void>>;
  agent: RunningAgent;
  warmup: number;
  count: number;
  log: (line: string) => void;
}

export async function measureLatency({ run, agent, warmup, count, log }: LatencyOptions): Promise<LatencyFigures> {
  const samples = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  const routes = Object.fromEntries(VARIANTS.map((v) => [v, {} as Record<string, number>])) as Record<
    Variant,
    Record<string, number>
  >;
  const requests = Object.fromEntries(VARIANTS.map((v) => [v, 0])) as Record<Variant, number>;
  const handles: Partial<Record<Variant, WorkflowHandle[]>> = {};
  for (let r = 0; r < warmup + count; r++) {
    const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
    for (const variant of order) {
      const before = { requests: agent.stats.requests, byRoute: { ...agent.stats.byRoute } };
      const started = performance.now();
      const handle = await run[variant]();
      const elapsed = performance.now() - started;
      if (r < warmup) continue;
      samples[variant].push(elapsed);
      if (handle) (handles[variant] ??= []).push(handle);
      requests[variant] += agent.stats.requests - before.requests;
      for (const [route, n] of Object.entries(agent.stats.byRoute)) {
        const delta = n - (before.byRoute[route] ?? 0);
        if (delta) routes[variant][route] = (routes[variant][route] ?? 0) + delta;
      }
    }
    if ((r + 1) % 10 === 0) log(`latency: round ${r + 1}/${warmup + count}`);
  }
  const per = (n: number) => round(n / count, 2);
  // Read after the measurement, so the reads do not load the server while it is measured.
  const latency_anatomy_ms: Partial<Record<TemporalVariant, Anatomy>> = {};
  for (const [variant, hs] of Object.entries(handles) as Array<[TemporalVariant, WorkflowHandle[]]>) {
    const anatomies: Anatomy[] = [];
    for (const h of hs) anatomies.push(anatomyOf((await h.fetchHistory()).events ?? []));
    latency_anatomy_ms[variant] = medianAnatomy(anatomies);
  }
  return {
    latency_ms: Object.fromEntries(VARIANTS.map((v) => [v, summarize(samples[v])])) as Record<Variant, Summary>,
    agent_requests_per_task: Object.fromEntries(VARIANTS.map((v) => [v, per(requests[v])])) as Record<Variant, number>,
    agent_requests_by_route: Object.fromEntries(
      VARIANTS.map((v) => [v, Object.fromEntries(Object.entries(routes[v]).map(([route, n]) => [route, per(n)]))]),
    ) as Record<Variant, Record<string, number>>,
    latency_anatomy_ms,
    latency_ratio_interval: Object.fromEntries(
      LATENCY_RATIOS.map(([a, b]) => [
        `${a}/${b}`,
        medianRatioInterval(samples[a], samples[b]).map((x) => round(x, 3)) as [number, number],
      ]),
    ) as Record<LatencyRatio, [number, number]>,
  };
}
