import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import type { ReceiverLimits } from '../../../worker/webhook-limits.js';
import { waitFor } from '../../helpers/wait.js';

const SECRET = 'unit-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let receiver: RunningWebhookReceiver | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await receiver?.close();
  receiver = undefined;
});

async function start(limits: Partial<ReceiverLimits>): Promise<RunningWebhookReceiver> {
  receiver = await startWebhookReceiver({
    secret: SECRET,
    notify: async () => 'delivered',
    logger: { warn() {}, error() {} },
    limits,
  });
  return receiver;
}

/** A connection that is open once connected, and tells when the receiver closed it. */
async function open(port: number): Promise<{ socket: Socket; closed: Promise<number> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  socket.resume();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

describe('the receiver listener', () => {
  it('closes a connection that sends nothing, one that trickles its headers, and an idle keep-alive, within seconds', async () => {
    const { port, url } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 300 });
    const started = performance.now();
    const silent = await open(port);
    const trickle = await open(port);
    const dripping = setInterval(() => trickle.socket.write('X'), 100);
    trickle.socket.write('POST /a2a/push/wf/t/c HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const keptAlive = await open(port);
    keptAlive.socket.write('GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n');
    try {
      const closedAt = await Promise.all([silent.closed, trickle.closed, keptAlive.closed]);
      // The header timeout is checked every second: each is gone well within 3 s.
      for (const at of closedAt) expect(at - started).toBeLessThan(3000);
    } finally {
      clearInterval(dripping);
    }
    expect(receiver!.stats().connections.timedOut).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${url}/still-serving`)).status).toBe(404);
  });

  it('holds at most maxConnectionsPerSource connections from one source, and maxConnections in all', async () => {
    const { port } = await start({ maxConnectionsPerSource: 2, maxConnections: 50 });
    const held = [await open(port), await open(port)];
    const third = await open(port);
    await third.closed;
    expect(receiver!.stats().connections).toMatchObject({ open: 2, overSourceLimit: 1 });
    for (const { socket } of held) socket.destroy();
    await waitFor(() => receiver!.stats().connections.open === 0, { what: 'both connections closed' });
    await receiver!.close();

    const { port: capped } = await start({ maxConnectionsPerSource: 10, maxConnections: 3 });
    for (let i = 0; i < 3; i += 1) await open(capped);
    const fourth = await open(capped);
    await fourth.closed;
    expect(receiver!.stats().connections).toMatchObject({ open: 3, overLimit: 1 });
  });

  it('answers bytes that are not HTTP with 400 and closes the connection', async () => {
    const { port } = await start({});
    const garbage = await open(port);
    let answer = '';
    garbage.socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    garbage.socket.write('\x16\x03\x01 not http at all\r\n\r\n');
    await garbage.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(receiver!.stats().connections.badRequests).toBe(1);
  });
});
