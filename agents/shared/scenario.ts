import { Role } from '@a2a-js/sdk';
import type { Message } from '@a2a-js/sdk';
import { metadataDelay, metadataString } from './parts.js';

/** Test switches a client can put in `message.metadata.scenario`. */
export const SCENARIOS = [
  'fail',
  'reject',
  'message',
  'second-question',
  'auth-required',
  'auth-out-of-band',
  'slow',
  'never-finish',
] as const;

/** Scenarios selected by the A2A TCK through `messageId` prefixes (a2a-tck `scenarios/*.feature`). */
export const TCK_SCENARIOS = [
  'tck-complete-task',
  'tck-input-required',
  'tck-reject-task',
  'tck-message-response',
] as const;

export type Scenario = (typeof SCENARIOS)[number] | (typeof TCK_SCENARIOS)[number];

/** What one turn of a sample agent should do, after reading the whole task conversation. */
export interface TurnSettings {
  scenario: Scenario | undefined;
  workDelayMs: number;
  chunkDelayMs: number;
  /** Wait before the turn's first event (a slow acknowledgement); 0 unless a message sets it. */
  ackDelayMs: number;
  /** How long the task works before it asks a question; 0 (at once) unless a message sets it. */
  askDelayMs: number;
}

export interface DelayDefaults {
  workDelayMs: number;
  chunkDelayMs: number;
}

/** Chunk delay of the `slow` scenario. */
export const SLOW_CHUNK_DELAY_MS = 2000;

/**
 * Reads the switches from every user message of the task, oldest first, so that a switch set on
 * the first turn still applies to later turns (the latest value wins). Unknown scenario names are
 * ignored.
 */
export function resolveTurnSettings(conversation: readonly Message[], defaults: DelayDefaults): TurnSettings {
  let scenario: Scenario | undefined;
  let workDelayMs: number | undefined;
  let chunkDelayMs: number | undefined;
  let ackDelayMs: number | undefined;
  let askDelayMs: number | undefined;
  for (const message of conversation) {
    if (message.role !== Role.ROLE_USER) continue;
    scenario = scenarioOf(message) ?? scenario;
    workDelayMs = metadataDelay(message, 'workDelayMs') ?? workDelayMs;
    chunkDelayMs = metadataDelay(message, 'chunkDelayMs') ?? chunkDelayMs;
    ackDelayMs = metadataDelay(message, 'ackDelayMs') ?? ackDelayMs;
    askDelayMs = metadataDelay(message, 'askDelayMs') ?? askDelayMs;
  }
  return {
    scenario,
    workDelayMs: workDelayMs ?? defaults.workDelayMs,
    chunkDelayMs: chunkDelayMs ?? (scenario === 'slow' ? SLOW_CHUNK_DELAY_MS : defaults.chunkDelayMs),
    ackDelayMs: ackDelayMs ?? 0,
    askDelayMs: askDelayMs ?? 0,
  };
}

function scenarioOf(message: Message): Scenario | undefined {
  const named = metadataString(message, 'scenario');
  const known = SCENARIOS.find((s) => s === named);
  if (known) return known;
  return TCK_SCENARIOS.find((prefix) => message.messageId.startsWith(prefix));
}
