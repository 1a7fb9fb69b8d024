import type { AgentServerOptions } from './agent-server.js';
import type { DelayDefaults } from './scenario.js';

/** Options of every sample agent (the name comes from the first one, the compatibility agent). See [docs/architecture.md](../../docs/architecture.md#layout). */
export interface CompatAgentOptions extends AgentServerOptions {
  /** Simulated work before results stream. @default 300 */
  workDelayMs?: number;
  /** Pause between artifact chunks. @default 150 */
  chunkDelayMs?: number;
}

export const DEFAULT_WORK_DELAY_MS = 300;
export const DEFAULT_CHUNK_DELAY_MS = 150;

/** @throws RangeError when a delay is negative or not a number. */
export function resolveDelays(options: CompatAgentOptions): DelayDefaults {
  return {
    workDelayMs: checkDelay('workDelayMs', options.workDelayMs ?? DEFAULT_WORK_DELAY_MS),
    chunkDelayMs: checkDelay('chunkDelayMs', options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS),
  };
}

function checkDelay(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative number of milliseconds, got ${String(value)}.`);
  }
  return value;
}
