/** What `--quick` and `--full` run (and the command line that picks one). */
import { dirname, join } from 'node:path';
import type { ThroughputLevel } from './phases/throughput.js';

export type BenchMode = 'quick' | 'full';

export const PHASES = [
  'latency',
  'throughput',
  'history',
  'resume',
  'parked',
  'hostility',
  'tracing',
  'release',
] as const;
export type Phase = (typeof PHASES)[number];

export interface BenchSettings {
  mode: BenchMode;
  phases: Phase[];
  out: string;
  /** Write V8 CPU profiles of the worker children here. */
  cpuProfileDir?: string;
  /** Extra `Worker.create` options for the worker children, as JSON (investigations). */
  workerOptions?: string;
  /** Extra environment of the worker children (e.g. `{"MALLOC_ARENA_MAX":"2"}`). */
  workerEnv?: Record<string, string>;
  /** Run the dev server with its default dynamic config (see dev-server-config.ts). */
  defaultServerConfig: boolean;
  /** Also park N `blocking_activity` workflows: what any cached workflow costs, for comparison. */
  parkedBaseline: boolean;
  latency: {
    warmup: number;
    /** Delegations per variant after the warm-up. */
    count: number;
    /** How often the client describes a delegation while it waits for the question. */
    pollIntervalMs: number;
  };
  throughput: {
    /** Delegations in flight, how many to complete at each level, and in how many passes over the variants. */
    levels: ThroughputLevel[];
    /** How often the one visibility list runs. */
    listIntervalMs: number;
  };
  /** Remote work of the history figures: the short task (one delegation after another) and the long one (all at once). */
  history: { shortMs: number; longMs: number };
  /**
   * `cache`: the parked workers' workflow cache (A2A_MAX_CACHED_WORKFLOWS); unset, the product's
   * default. Quick mode shrinks it below `count`, so its parked phase, like the full one, parks
   * more delegations than the cache holds.
   */
  parked: { count: number; startConcurrency: number; answerConcurrency: number; cache?: number };
  resume: {
    /** Pause between the report's chunks, so the stream is in flight when the worker dies. */
    chunkDelayMs: number;
  };
  /** Releases with three agents, one at a time, after `warmup` more. */
  release: { warmup: number; count: number };
}

const QUICK: Omit<
  BenchSettings,
  'phases' | 'out' | 'cpuProfileDir' | 'workerOptions' | 'workerEnv' | 'defaultServerConfig' | 'parkedBaseline'
> = {
  mode: 'quick',
  latency: { warmup: 3, count: 30, pollIntervalMs: 5 },
  throughput: { levels: [{ concurrency: 50, total: 150 }], listIntervalMs: 100 },
  history: { shortMs: 1_000, longMs: 30_000 },
  parked: { count: 1_000, startConcurrency: 50, answerConcurrency: 50, cache: 500 },
  resume: { chunkDelayMs: 3_000 },
  release: { warmup: 2, count: 10 },
};

const FULL: Omit<
  BenchSettings,
  'phases' | 'out' | 'cpuProfileDir' | 'workerOptions' | 'workerEnv' | 'defaultServerConfig' | 'parkedBaseline'
> = {
  mode: 'full',
  latency: { warmup: 5, count: 200, pollIntervalMs: 5 },
  throughput: {
    levels: [
      { concurrency: 50, total: 600, passes: 4 },
      { concurrency: 200, total: 1_600, passes: 4 },
    ],
    listIntervalMs: 100,
  },
  history: { shortMs: 1_000, longMs: 30_000 },
  parked: { count: 10_000, startConcurrency: 50, answerConcurrency: 50 },
  resume: { chunkDelayMs: 3_000 },
  release: { warmup: 3, count: 10 },
};

/**
 * `--quick` | `--full` (default), `--only latency,history` (a subset of the phases, for
 * development), `--out <file>` (default: `defaultOut` for a full run of every phase, else
 * `partial.json` beside it, so a quick or partial run never replaces the committed full run),
 * `--cpu-prof <dir>` (profiles of the worker children),
 * `--worker-options '{"maxCachedWorkflows":500}'` (extra worker options, for investigations),
 * `--worker-env '{"MALLOC_ARENA_MAX":"2"}'` (extra environment of the worker processes),
 * `--parked <n>` (another number of parked delegations), `--parked-cache <n>` (the parked
 * workers' workflow cache), `--default-server-config` (the dev
 * server without the bench's dynamic config, to see what it changes), `--parked-baseline` (the
 * parked phase also parks the simplest workflow that waits for a signal, `blocking_activity`).
 */
export function parseArgs(argv: readonly string[], defaultOut: string): BenchSettings {
  let mode: BenchMode = 'full';
  let phases: Phase[] = [...PHASES];
  let out: string | undefined;
  let cpuProfileDir: string | undefined;
  let workerOptions: string | undefined;
  let workerEnv: Record<string, string> | undefined;
  let parked: number | undefined;
  let parkedCache: number | undefined;
  let defaultServerConfig = false;
  let parkedBaseline = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') mode = 'quick';
    else if (arg === '--full') mode = 'full';
    else if (arg === '--only') phases = parsePhases(argv[++i]);
    else if (arg === '--out') out = value(arg, argv[++i]);
    else if (arg === '--cpu-prof') cpuProfileDir = value(arg, argv[++i]);
    else if (arg === '--worker-options') workerOptions = json(arg, argv[++i]);
    else if (arg === '--worker-env') workerEnv = JSON.parse(json(arg, argv[++i])) as Record<string, string>;
    else if (arg === '--parked') parked = Number(value(arg, argv[++i]));
    else if (arg === '--parked-cache') parkedCache = Number(value(arg, argv[++i]));
    else if (arg === '--default-server-config') defaultServerConfig = true;
    else if (arg === '--parked-baseline') parkedBaseline = true;
    else
      throw new Error(
        `unknown argument ${arg}; use --quick, --full, --only <${PHASES.join(',')}>, --out <file>, --cpu-prof <dir>, --worker-options <json>, --worker-env <json>, --parked <n>, --parked-cache <n>, --parked-baseline, --default-server-config`,
      );
  }
  const base = mode === 'quick' ? QUICK : FULL;
  for (const [flag, n] of [
    ['--parked', parked],
    ['--parked-cache', parkedCache],
  ] as const)
    if (n !== undefined && !(Number.isInteger(n) && n > 0)) throw new Error(`${flag} needs a positive integer`);
  return {
    ...base,
    parked: {
      ...base.parked,
      count: parked ?? base.parked.count,
      ...(parkedCache !== undefined ? { cache: parkedCache } : {}),
    },
    phases,
    out: out ?? (mode === 'full' && phases.length === PHASES.length ? defaultOut : partialOut(defaultOut)),
    defaultServerConfig,
    parkedBaseline,
    ...(cpuProfileDir ? { cpuProfileDir } : {}),
    ...(workerOptions ? { workerOptions } : {}),
    ...(workerEnv ? { workerEnv } : {}),
  };
}

/** Where a quick or partial run writes its figures: beside the full run's file, ignored by git. */
function partialOut(fullOut: string): string {
  return join(dirname(fullOut), 'partial.json');
}

function parsePhases(list: string | undefined): Phase[] {
  const names = value('--only', list).split(',');
  const unknown = names.filter((n) => !(PHASES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown phase ${unknown.join(', ')}; phases: ${PHASES.join(', ')}`);
  return names as Phase[];
}

function json(flag: string, v: string | undefined): string {
  JSON.parse(value(flag, v));
  return v!;
}

function value(flag: string, v: string | undefined): string {
  if (!v) throw new Error(`${flag} needs a value`);
  return v;
}
