/**
 * The faults of the matrix, the same for every link: each is a Toxiproxy toxic (or the proxy
 * taken down) with its schedule. Degrading faults (latency, bandwidth, slow close, tiny
 * segments) sit on the link for the whole delegation; breaking faults (half-open, resets, a
 * connection closed after a few bytes, an outage, flapping) start once the delegation is under
 * way (its first chunk was seen, or its task is known) and end after their window; `gone` and
 * `stuck` never end, and the delegation must fail with its typed failure in time (or, where a
 * failure is not the answer, another part must take over).
 *
 * The flapping lasts 30 s (15 times down and up, longer than a cell's delegation, which it
 * covers from its first chunk to its end); `A2A_FAULTS_LONG=1` makes it last 5 minutes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultyLink, ToxicSpec } from '../helpers/toxiproxy.js';
import { SILENCE_NOTICE_MS } from '../../activities/reachability.js';
import { durationMs } from '../../contract/durations.js';
import { TRACKING_DEFAULTS } from '../../workflows/delegate/tracking-settings.js';

const long = process.env.A2A_FAULTS_LONG === '1';

export interface Fault {
  id: FaultId;
  /** As the matrix prints it. */
  label: string;
  /** `start`: on the link from the first byte; `mid`: once the delegation is under way. */
  when: 'start' | 'mid';
  /**
   * Inflicts the fault; resolves when it is over and the link is healthy again (a degrading fault
   * resolves at once and stays until the cell heals the link; `gone` resolves at once and never heals).
   */
  inflict(link: FaultyLink): Promise<void>;
  /** The fault is one the link recovers from (the delegation completes), or it never ends. */
  ends: boolean;
  /** How long the link is broken (for the cell's time budget), in ms. */
  windowMs: number;
  /**
   * The link carries nothing for ten seconds or more while the delegation still needs it: the
   * status must show the problem while it lasts, within `noticeWithinS` when set.
   */
  breaks: boolean;
  noticeWithinS?: number;
}

/**
 * The delegations' heartbeat timeout (the default). A tracker notices a half-open link within
 * twice SILENCE_NOTICE_MS (one waiting for an event, one for a GetTask's answer); the status
 * shows what the heartbeat details say, and Temporal sends those at most every 0.8 × the
 * heartbeat timeout.
 */
export const HEARTBEAT_S = durationMs(TRACKING_DEFAULTS.heartbeatTimeout, 'heartbeatTimeout') / 1000;
const HEARTBEAT_THROTTLE_S = 0.8 * HEARTBEAT_S;
const NOTICE_S = (2 * SILENCE_NOTICE_MS) / 1000;

export type FaultId =
  | 'latency'
  | 'jitter'
  | 'bandwidth'
  | 'slow-close'
  | 'half-open'
  | 'reset-peer'
  | 'slicer'
  | 'limit-data'
  | 'outage'
  | 'flap'
  | 'gone'
  | 'stuck';

/** On the link for the whole delegation (in both directions unless told). */
function degrade(
  toxic: ToxicSpec,
  streams: Array<'downstream' | 'upstream'> = ['downstream', 'upstream'],
): (link: FaultyLink) => Promise<void> {
  return async (link) => {
    for (const stream of streams) await link.add(toxic, stream);
  };
}

/** On the link for `ms`, then removed (Toxiproxy closes the connections a `timeout` toxic held). */
function window(
  toxic: ToxicSpec,
  ms: number,
  streams: Array<'downstream' | 'upstream'>,
): (link: FaultyLink) => Promise<void> {
  return async (link) => {
    for (const stream of streams) await link.add(toxic, stream);
    await sleep(ms);
    for (const stream of streams) await link.remove(`${toxic.type}-${stream}`);
  };
}

export const HALF_OPEN_MS = 20_000;
export const OUTAGE_MS = 30_000;
export const FLAP_PERIOD_MS = 2_000;
export const FLAP_MS = long ? 5 * 60_000 : 30_000;

export const FAULTS: readonly Fault[] = [
  {
    id: 'latency',
    label: 'latency +2 s',
    when: 'start',
    // On the answers only: +2 s per round trip, as the issue asks.
    inflict: degrade({ type: 'latency', attributes: { latency: 2_000, jitter: 0 } }, ['downstream']),
    ends: true,
    windowMs: 0,
    breaks: false,
  },
  {
    id: 'jitter',
    label: 'latency +2 s ± 1.5 s jitter',
    when: 'start',
    inflict: degrade({ type: 'latency', attributes: { latency: 2_000, jitter: 1_500 } }, ['downstream']),
    ends: true,
    windowMs: 0,
    breaks: false,
  },
  {
    id: 'bandwidth',
    label: 'bandwidth 10 KB/s',
    when: 'start',
    inflict: degrade({ type: 'bandwidth', attributes: { rate: 10 } }),
    ends: true,
    windowMs: 0,
    breaks: false,
  },
  {
    id: 'slow-close',
    label: 'slow_close 2 s',
    when: 'start',
    inflict: degrade({ type: 'slow_close', attributes: { delay: 2_000 } }, ['downstream']),
    ends: true,
    windowMs: 0,
    breaks: false,
  },
  {
    id: 'slicer',
    label: 'slicer (8 ± 4 byte segments)',
    when: 'start',
    inflict: degrade({ type: 'slicer', attributes: { average_size: 8, size_variation: 4, delay: 100 } }),
    ends: true,
    windowMs: 0,
    breaks: false,
  },
  {
    id: 'half-open',
    label: `half-open ${HALF_OPEN_MS / 1000} s (timeout toxic)`,
    when: 'mid',
    inflict: window({ type: 'timeout', attributes: { timeout: 0 } }, HALF_OPEN_MS, ['downstream', 'upstream']),
    ends: true,
    windowMs: HALF_OPEN_MS,
    breaks: true,
    // + 1 s: the status is looked at every 250 ms, and describe() takes its time on a loaded machine.
    noticeWithinS: NOTICE_S + HEARTBEAT_THROTTLE_S + 1,
  },
  {
    id: 'reset-peer',
    label: 'reset_peer mid-body, 3 s',
    when: 'mid',
    inflict: window({ type: 'reset_peer', attributes: { timeout: 0 } }, 3_000, ['downstream']),
    ends: true,
    windowMs: 3_000,
    breaks: false,
  },
  {
    id: 'limit-data',
    label: 'limit_data 600 B, 5 s',
    when: 'mid',
    inflict: window({ type: 'limit_data', attributes: { bytes: 600 } }, 5_000, ['downstream']),
    ends: true,
    windowMs: 5_000,
    breaks: false,
  },
  {
    id: 'outage',
    label: `down ${OUTAGE_MS / 1000} s`,
    when: 'mid',
    inflict: (link) => link.outage(OUTAGE_MS),
    ends: true,
    windowMs: OUTAGE_MS,
    breaks: true,
  },
  {
    id: 'flap',
    label: `flapping every ${FLAP_PERIOD_MS / 1000} s for ${FLAP_MS < 60_000 ? `${FLAP_MS / 1000} s` : `${FLAP_MS / 60_000} min`}`,
    when: 'mid',
    inflict: (link) => link.flap(FLAP_PERIOD_MS, FLAP_MS),
    ends: true,
    windowMs: FLAP_MS,
    breaks: false,
  },
  {
    id: 'gone',
    label: 'down for good',
    when: 'mid',
    inflict: (link) => link.setEnabled(false),
    ends: false,
    windowMs: Infinity,
    breaks: true,
  },
  {
    id: 'stuck',
    label: 'half-open for good',
    when: 'mid',
    inflict: async (link) => {
      await link.add({ type: 'timeout', attributes: { timeout: 0 } }, 'downstream');
      await link.add({ type: 'timeout', attributes: { timeout: 0 } }, 'upstream');
    },
    ends: false,
    windowMs: Infinity,
    breaks: true,
  },
];
