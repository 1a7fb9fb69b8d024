/**
 * Attacks on the push receiver and the worker's local edges (issue 20, items 1 and 5), each
 * through the real worker process of {@link startReceiverRig}, each beside an ordinary delegation
 * that must complete. What each cost the worker (time, peak RSS, event-loop delay, from the
 * receiver's stats listener) is printed at the end for the record.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerUpdate, FailureType, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { deliveryTarget, historyOf, taskUpdatedSignals } from '../push/support.js';
import {
  beside,
  floodDeliveries,
  OPEN_FILE_LIMIT,
  question,
  reportingStall,
  startReceiverRig,
  type Measurement,
  type ReceiverRig,
} from './receiver-rig.js';
import { RAW_CONTROL } from './support.js';

const temporal = useTemporal();
let rig: ReceiverRig;
const measured: Measurement[] = [];

beforeAll(async () => {
  rig = await startReceiverRig(temporal);
});
afterAll(async () => {
  await rig?.close();
  if (measured.length) {
    const lines = measured.map(
      (m) =>
        `${m.attack} → ${m.outcome} → ${m.seconds} s, peak RSS ${m.peakRssMb} MB, event-loop delay p99 ${m.eventLoopDelayMs.p99} ms / max ${m.eventLoopDelayMs.max} ms`,
    );
    console.info(`receiver attacks (name → outcome → time, worker cost):\n${lines.join('\n')}`);
  }
});

/** Bidi and zero-width characters a log viewer would act on or hide. */
const BIDI = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A push delegation to the sample agent that waits for its question to be answered, holding a
 * push config (the task works a little before it asks; one asked at once would need none).
 */
async function waitingDelegation(name: string) {
  const handle = await startDelegate(
    rig.client,
    rig.taskQueue,
    compatRequest({ mode: 'push', metadata: { askDelayMs: 200 }, tracking: { pushSafetyNetInterval: '1 hour' } }),
    `${name}-${Date.now()}`,
  );
  const question = await waitForQuestion(handle);
  return { handle, question, target: await deliveryTarget(rig.agent, question.taskId) };
}

describe('the push receiver under attack', () => {
  it('logs an unauthenticated path with C1 controls and bidi characters escaped', async () => {
    const { result, measurement } = await beside(rig, 'c1-and-bidi-in-the-path', async () => {
      const logFrom = rig.worker.output().length;
      const hostile = 'release\u009b2J\u202etxt.exe\u2066\u200b';
      const response = await fetch(`${rig.receiverUrl}/a2a/push/${encodeURIComponent(hostile)}/task/config`, {
        method: 'POST',
        headers: { authorization: 'Bearer forged', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(403);
      // Raw bytes in the request line do not even reach the receiver: Node's parser answers 400.
      const raw = await rawRequest(
        Buffer.from('POST /a2a/push/\x9b2J\u202e/t/c HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
      );
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      const line = await waitFor(
        () =>
          rig.worker
            .output()
            .slice(logFrom)
            .split('\n')
            .find((l) => l.includes('bad-credential')),
        { what: 'the refusal in the worker log' },
      );
      return { outcome: '403, logged escaped', result: line };
    });
    measured.push(measurement);
    expect(result).toContain('"release\\u009b2J\\u202etxt.exe\\u2066\\u200b"');
    expect(result).not.toMatch(RAW_CONTROL);
    expect(result).not.toMatch(BIDI);
  });

  it('signals the same bytes delivered three times once', async () => {
    const { handle, question: asked, target } = await waitingDelegation('same-bytes');
    const { measurement } = await beside(rig, 'same-bytes-three-times', async () => {
      const before = await rig.stats();
      const signalsBefore = taskUpdatedSignals(await historyOf(handle)).length;
      const body = question(asked.taskId, 1);
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.credential}`, 'content-type': 'application/a2a+json' },
          body,
        });
        statuses.push(response.status);
      }
      // The first is signalled at once (200) or, within a second of the agent's own delivery, once that second is over (202).
      expect([200, 202]).toContain(statuses[0]);
      expect(statuses.slice(1)).toEqual([200, 200]);
      const after = await waitFor(
        async () => {
          const s = await rig.stats();
          return s.signaled - before.signaled === 1 ? s : undefined;
        },
        { what: 'the one signal' },
      );
      expect(after.duplicate - before.duplicate).toBe(2);
      await waitFor(async () => taskUpdatedSignals(await historyOf(handle)).length === signalsBefore + 1, {
        what: 'the signal in history',
      });
      return { outcome: `${statuses.join(', ')}: one signal`, result: undefined };
    });
    measured.push(measurement);
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
    const result = await reportingStall(rig, () => [handle], handle.result(), 30_000);
    expect((result as DelegateResult).state).toBe('TASK_STATE_COMPLETED');
  });

  it('lets no query string choose the span link of a delivery', async () => {
    const { handle, question: asked, target } = await waitingDelegation('chosen-link');
    const issued = new URL(target.url);
    const traceparent = issued.searchParams.get('traceparent')!;
    expect(traceparent, 'the registration ran in a trace, so its URL carries one').toMatch(/^00-[0-9a-f]{32}-/);
    expect(issued.searchParams.get('tracetag')).toBeTruthy();
    const chosenTrace = '11111111111111111111111111111111';
    const { measurement } = await beside(rig, 'query-chooses-the-span-link', async () => {
      const forged = new URL(target.url);
      forged.searchParams.set('traceparent', `00-${chosenTrace}-2222222222222222-01`);
      const before = await rig.stats();
      const response = await fetch(forged, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.credential}`, 'content-type': 'application/a2a+json' },
        body: question(asked.taskId, 2),
      });
      expect([200, 202]).toContain(response.status); // the delivery counts; only the link is dropped
      await waitFor(async () => (await rig.stats()).signaled > before.signaled, { what: 'its signal' });
      // And one as the agent sends it, on the URL as issued.
      const honest = await fetch(target.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.credential}`, 'content-type': 'application/a2a+json' },
        body: question(asked.taskId, 3),
      });
      expect([200, 202]).toContain(honest.status);
      await waitFor(async () => (await rig.stats()).signaled > before.signaled + 1, { what: 'its signal' });
      return { outcome: `${response.status}, no chosen link`, result: undefined };
    });
    measured.push(measurement);
    // One span per signal: wait for all of this delegation's, then look at their links.
    const signals = taskUpdatedSignals(await historyOf(handle)).length;
    const spans = await rig.otlp.waitFor((all) => {
      const mine = all.filter(
        (s) => s.name === 'a2a push delivery' && s.attributes.temporalWorkflowId === handle.workflowId,
      );
      return mine.length >= signals ? mine : undefined;
    }, "the delegation's delivery spans");
    expect(spans.flatMap((s) => s.links.map((l) => l.traceId))).not.toContain(chosenTrace);
    expect(spans.some((s) => s.links.some((l) => l.traceId === traceparent.split('-')[1]))).toBe(true);
    await handle.cancel();
  });

  it('survives 10,000 valid deliveries while the delegation waits for input, and still takes the answer', async () => {
    const { handle, question: asked, target } = await waitingDelegation('flood');
    const statuses: Record<number, number> = {};
    const before = await rig.stats();
    const logFrom = rig.worker.output().length;
    const { measurement } = await beside(
      rig,
      '10000-valid-deliveries',
      async () => {
        Object.assign(statuses, await floodDeliveries(target, asked.taskId, { total: 10_000 }));
        return { outcome: JSON.stringify(statuses), result: undefined };
      },
      // Beside it, a poll and a push delegation: the push one's deliveries get through the flood.
      [{ mode: 'poll' }, { mode: 'push', tracking: { pushSafetyNetInterval: '1 hour' } }],
    );
    measured.push(measurement);
    const after = await rig.stats();
    expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(10_000);
    // Over the sender's rate: refused; within it: coalesced into at most one signal a second.
    expect(after.rejected['rate-limited'] - before.rejected['rate-limited']).toBeGreaterThan(0);
    expect(after.coalesced - before.coalesced).toBeGreaterThan(0);
    expect(after.signaled - before.signaled).toBeLessThanOrEqual(Math.ceil(measurement.seconds) + 4);

    const history = await historyOf(handle);
    expect(history.length).toBeLessThan(1000);
    expect(await statusOf(handle)).toMatchObject({ phase: 'waiting-for-input' });
    // The person's answer is still taken, and the agent's own delivery of the end wakes the delegation
    // (the safety net is an hour away).
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
    const result = await reportingStall(rig, () => [handle], handle.result(), 30_000);
    expect((result as DelegateResult).state).toBe('TASK_STATE_COMPLETED');
    // No line per request: refusals and coalesced deliveries are counted, a summary every 10 s at most.
    expect(
      rig.worker
        .output()
        .slice(logFrom)
        .split('\n')
        .filter((line) => line.includes('webhook:')).length,
    ).toBeLessThanOrEqual(3);
    // No span per request: one per time the delegation was asked. Those that signalled match the
    // history's signals; the others are asks it answered `no` (a stale delivery), `later` (while it
    // sent the answer) or found it closed, and how many of those there are is a matter of timing.
    const spans = rig.otlp.spans.filter(
      (s) => s.name === 'a2a push delivery' && s.attributes.temporalWorkflowId === handle.workflowId,
    );
    const outcomes = spans.map((s) => s.attributes['a2a.push.outcome']);
    expect(outcomes.filter((o) => o === 'signaled').length).toBeLessThanOrEqual(
      taskUpdatedSignals(await historyOf(handle)).length,
    );
    expect(outcomes).not.toContain('unavailable');
    expect(spans.length).toBeLessThan(100);
    console.info(
      `flood: ${JSON.stringify(statuses)}; signals ${after.signaled - before.signaled} (trailing ${after.trailing - before.trailing}); history ${history.length} events`,
    );
  });

  it(`keeps file descriptors for the worker's own calls under 1,000 half-open connections (limit ${OPEN_FILE_LIMIT})`, async () => {
    const sockets: Socket[] = [];
    const logFrom = rig.worker.output().length;
    const before = await rig.stats();
    const { result: peakFiles, measurement } = await beside(rig, '1000-half-open-connections', async () => {
      // From five addresses, 200 each: more than the per-source cap, and than the receiver holds in all.
      for (let i = 0; i < 1000; i += 1) {
        const socket = connect({
          port: Number(new URL(rig.receiverUrl).port),
          host: '127.0.0.1',
          localAddress: `127.0.${1 + Math.floor(i / 200)}.${10 + (i % 200)}`,
        });
        socket.on('error', () => {});
        sockets.push(socket);
      }
      await waitFor(async () => (await rig.stats()).connections.open >= 200, { what: 'the connections held' });
      const held = rig.openFiles();
      // Delegations run while they are held (three, and the ordinary one beside).
      const results = await Promise.all(
        [0, 1, 2].map(async (i) => {
          const h = await startDelegate(
            rig.client,
            rig.taskQueue,
            compatRequest({ text: 'Check for Node.js 24', mode: 'poll' }),
            `half-open-${i}-${Date.now()}`,
          );
          return ((await h.result()) as DelegateResult).state;
        }),
      );
      expect(results).toEqual(['TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED', 'TASK_STATE_COMPLETED']);
      return { outcome: 'delegations completed', result: Math.max(held, rig.openFiles()) };
    });
    measured.push(measurement);
    try {
      const during = await rig.stats();
      expect(during.connections.open).toBeLessThanOrEqual(256);
      expect(
        during.connections.overLimit +
          during.connections.overSourceLimit -
          before.connections.overLimit -
          before.connections.overSourceLimit,
      ).toBeGreaterThan(0);
      expect(peakFiles).toBeLessThan(OPEN_FILE_LIMIT / 2);
      expect(rig.worker.output().slice(logFrom)).not.toMatch(/EMFILE/);
      // Nothing was sent on them: the receiver frees them itself within seconds (the header timeout).
      const started = performance.now();
      await waitFor(async () => (await rig.stats()).connections.open === 0, {
        what: 'the half-open connections closed by the receiver',
        timeoutMs: 15_000,
      });
      console.info(
        `half-open: ${during.connections.open} held (${rig.openFiles()} fds now, peak ${peakFiles}), freed by the receiver in ${((performance.now() - started) / 1000).toFixed(1)} s more`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('refuses a FIFO and a 200 MB secret file at once, and delegations that need DNS go on', async () => {
    const { result, measurement } = await beside(
      rig,
      'fifo-and-200-mb-secret-files',
      async () => {
        const started = performance.now();
        // Six at once on the FIFO: a blocking open would take all four of libuv's threads.
        const refused = await Promise.all(
          ['fifo', 'fifo', 'fifo', 'fifo', 'fifo', 'fifo', 'big'].map(async (agent, i) => {
            const h = await startDelegate(
              rig.client,
              rig.taskQueue,
              compatRequest({ agent, label: agent, mode: 'poll' }),
              `secret-file-${agent}-${i}-${Date.now()}`,
            );
            return h.result().then(
              () => 'completed',
              (err: Error & { cause?: { type?: string; message?: string } }) => err.cause,
            );
          }),
        );
        const seconds = (performance.now() - started) / 1000;
        return { outcome: `A2A_CREDENTIAL_MISSING in ${seconds.toFixed(2)} s`, result: { refused, seconds } };
      },
      // Beside it: an agent named by a host name, so the worker's DNS lookups (on the same thread pool) must work.
      [{ agent: 'compat-by-name', label: 'compat-by-name', mode: 'poll' }],
    );
    measured.push(measurement);
    expect(result.seconds).toBeLessThan(15);
    for (const failure of result.refused) {
      expect(failure).toMatchObject({ type: FailureType.credentialMissing });
    }
    expect((result.refused[0] as { message: string }).message).toContain(
      `needs the file ${rig.files.fifo} (bearer token), which is a FIFO (named pipe), not a regular file`,
    );
    expect((result.refused[6] as { message: string }).message).toContain(
      `needs the file ${rig.files.big} (bearer token), which is 209715200 bytes`,
    );
  });
});

/** Sends raw bytes as a request and returns what came back. */
function rawRequest(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(rig.receiverUrl).port), '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}
