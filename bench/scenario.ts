/**
 * The bench's one scenario, shared by every variant: ask the compatibility agent about
 * payment-service WITHOUT the Node.js version, so it stops in `input-required`; answer
 * "Node.js 24" on the same task; it streams its report in three chunks and completes.
 */
import type { Part } from '../a2a/index.js';
import { SAMPLE_MANIFEST } from '../agents/index.js';
import type { DelegateInput } from '../contract/index.js';

/** The agent's name in the workers' agents registry. */
export const AGENT_NAME = 'compat';

export const REQUEST_TEXT = 'Check the dependencies of payment-service for the upgrade from 1.4.0 to 2.0.0.';
export const ANSWER_TEXT = 'Node.js 24';

/** What the report must say for a delegation to count as done right. */
export const REPORT_MARKER = 'Node.js 24';

/** The agent's per-message delay switches (zero artificial work by default). */
export interface RemoteDelays {
  workDelayMs: number;
  chunkDelayMs: number;
}

export const NO_DELAY: RemoteDelays = { workDelayMs: 0, chunkDelayMs: 0 };

/** The manifest as a data part of our own client's (A2A 1.0 JSON) shape. */
export const manifestPart: Part = { data: SAMPLE_MANIFEST as Record<string, never>, mediaType: 'application/json' };

/** The input every Temporal variant starts with (`delegate` reads `mode`; the baselines ignore it). */
export function delegationInput(mode: 'stream' | 'poll' | 'push', delays: RemoteDelays = NO_DELAY): DelegateInput {
  return {
    agent: AGENT_NAME,
    label: AGENT_NAME,
    text: REQUEST_TEXT,
    parts: [manifestPart],
    mode,
    metadata: { workDelayMs: delays.workDelayMs, chunkDelayMs: delays.chunkDelayMs },
  };
}
