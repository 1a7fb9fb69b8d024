/**
 * The arithmetic of the server-cost figures: counters read before and after N delegations, less
 * what the same stack does when idle (the server's own queues and timers, PostgreSQL's
 * background work), measured over an idle window beforehand and scaled to the run's length.
 */
import { round } from '../stats.js';

export type Counters = Record<string, number>;

export function delta(before: Counters, after: Counters): Counters {
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]));
}

export interface Window {
  counters: Counters;
  seconds: number;
}

/** Per delegation: (run − idle rate × run seconds) / n, for every counter of the run. */
export function perDelegation(run: Window, idle: Window, n: number, digits = 2): Counters {
  return Object.fromEntries(
    Object.entries(run.counters).map(([k, v]) => {
      const background = idle.seconds > 0 ? ((idle.counters[k] ?? 0) * run.seconds) / idle.seconds : 0;
      return [k, round((v - background) / n, digits)];
    }),
  );
}

/** Delegations per second one fully used core of a part sustains, from its CPU seconds per delegation. */
export function perCore(cpuSecondsPerDelegation: number): number | null {
  return cpuSecondsPerDelegation > 0 ? round(1 / cpuSecondsPerDelegation, 1) : null;
}
