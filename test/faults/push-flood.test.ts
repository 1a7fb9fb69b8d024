/**
 * The push flood as an attack (issue 26): someone holding a running delegation's webhook URL and
 * credential delivers 1,000 valid notifications a second for 30 s (each a new question, so none
 * is a duplicate), from an address of its own, at the real worker process (`a2a-temporal worker
 * --webhook-port`, the receiver in it) while the delegation's task works and canary push
 * delegations come and go beside it. The receiver stays up and keeps waking the canaries; the
 * flooded delegation's history grows by at most a cap (one signal a second, as docs/push.md says,
 * each wake-up at most 12 events); it completes when its task does; the counters show the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegateResult } from '../../contract/index.js';
import { compatRequest, startDelegate, statusOf } from '../helpers/delegations.js';
import { useTemporal } from '../helpers/temporal.js';
import { waitFor } from '../helpers/wait.js';
import {
  floodDeliveries,
  reportingStall,
  startReceiverRig,
  type ReceiverRig,
} from '../integration/hostile/receiver-rig.js';
import { deliveryTarget, historyOf, taskUpdatedSignals } from '../integration/push/support.js';
import { writeCells } from './fault-matrix.js';
import { runCanaries } from './support.js';

const PER_SECOND = 1_000;
const FLOOD_S = 30;
/** A delivery that wakes the delegation adds about 5 events (docs/push.md: a signal, its workflow task, the read's marker); the cap allows 12. */
const EVENTS_PER_WAKE_UP = 12;
/**
 * The canaries' safety net is an hour away, so ending within this means their pushes got through
 * the flood (on a machine at load average 40 a canary took 8 s).
 */
const CANARY_WITHIN_S = 60;

const temporal = useTemporal();
let rig: ReceiverRig;

beforeAll(async () => {
  rig = await startReceiverRig(temporal);
});
afterAll(async () => {
  await rig?.close();
});

describe('the push flood', () => {
  it(`takes ${PER_SECOND} deliveries a second for ${FLOOD_S} s at a running delegation: bounded history, refusals counted, canaries woken, completed`, async () => {
    await rig.resetGauges();
    const before = await rig.stats();
    // The task works longer than the flood lasts; its end comes in the agent's own delivery (the safety net is an hour away).
    const handle = await startDelegate(
      rig.client,
      rig.taskQueue,
      compatRequest({
        text: 'Check for Node.js 24',
        mode: 'push',
        metadata: { workDelayMs: (FLOOD_S + 5) * 1000 },
        tracking: { pushSafetyNetInterval: '1 hour' },
      }),
      `push-flood-${Date.now()}`,
    );
    const taskId = await waitFor(async () => (await statusOf(handle)).taskId, { what: 'the task id' });
    const target = await deliveryTarget(rig.agent, taskId);
    const eventsBefore = (await historyOf(handle)).length;

    let flooding = true;
    const canaries = runCanaries(
      rig.client,
      rig.taskQueue,
      compatRequest({ text: 'Check for Node.js 24', mode: 'push', tracking: { pushSafetyNetInterval: '1 hour' } }),
      () => flooding,
      CANARY_WITHIN_S,
    );
    const started = performance.now();
    const statuses = await floodDeliveries(target, taskId, { total: PER_SECOND * FLOOD_S, perSecond: PER_SECOND });
    const floodS = (performance.now() - started) / 1000;
    flooding = false;
    const history = await historyOf(handle);
    const during = await rig.stats();

    const result = (await reportingStall(rig, () => [handle], handle.result(), 60_000)) as DelegateResult;
    const { seconds, failures, slowest } = await canaries;
    const after = await rig.stats();
    const events = (await historyOf(handle)).length;
    const signals = taskUpdatedSignals(history).length;
    const gauges = after.process!;
    // One signal a second, two at once after a quiet second (docs/push.md), one trailing.
    const cap = EVENTS_PER_WAKE_UP * (Math.ceil(floodS) + 3);
    const summary = {
      statuses,
      rate: Math.round((PER_SECOND * FLOOD_S) / floodS),
      rateLimited: after.rejected['rate-limited'] - before.rejected['rate-limited'],
      coalesced: after.coalesced - before.coalesced,
      signals,
      eventsDuringFlood: history.length - eventsBefore,
      events,
      canaries: seconds.length,
      slowestCanary: slowest,
      peakRssMb: Math.round(gauges.peakRssBytes / 2 ** 20),
      eventLoopDelayMs: gauges.eventLoopDelayMs,
    };
    console.info(`push flood: ${JSON.stringify(summary)}`);
    writeCells('push-flood', [
      {
        link: 'anyone → webhook receiver',
        fault: `flood: ${PER_SECOND} valid deliveries/s for ${FLOOD_S} s (a held credential)`,
        mode: 'push',
        expected: 'completed',
        outcome: result.state === 'TASK_STATE_COMPLETED' ? 'completed' : String(result.state),
        seconds: floodS,
        ok: result.state === 'TASK_STATE_COMPLETED' && failures.length === 0 && summary.eventsDuringFlood <= cap,
        note:
          `${summary.rate}/s offered: ${Object.entries(statuses)
            .map(([status, n]) => `${n} × ${status}`)
            .join(', ')}; ${signals} signals, +${summary.eventsDuringFlood} history events (cap ${cap}); ` +
          `${seconds.length} canaries, slowest ${slowest.toFixed(1)} s; worker RSS peak ${summary.peakRssMb} MB, ` +
          `event-loop p99 ${gauges.eventLoopDelayMs.p99} ms`,
      },
    ]);

    expect(rig.alive(), 'the worker process is alive').toBe(true);
    expect(failures, 'the canaries beside the flood').toEqual([]);
    expect(result.state).toBe('TASK_STATE_COMPLETED');
    // Refused over the sender's rate; within it, coalesced into one signal a second.
    expect(statuses[429] ?? 0).toBeGreaterThan(0);
    expect(summary.rateLimited).toBeGreaterThan(0);
    expect(summary.coalesced).toBeGreaterThan(0);
    expect(during.signaled - before.signaled).toBeGreaterThan(0);
    expect(signals).toBeLessThanOrEqual(Math.ceil(floodS) + 3);
    expect(summary.eventsDuringFlood).toBeLessThanOrEqual(cap);
  });
});
