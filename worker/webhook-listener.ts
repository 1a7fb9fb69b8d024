/**
 * The HTTP servers the receiver and its stats listener run on, with the connection-level
 * defences: a cap on open connections in all and per source, and timeouts that free a socket
 * within seconds whatever the sender does (no headers, a trickle of bytes, an idle keep-alive).
 * The caps keep most of the process's file descriptors for the worker's own calls: 900 half-open
 * connections used to leave none, and the worker's requests to Temporal and agents failed with
 * EMFILE.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sourceKey, type ReceiverLimits } from './webhook-limits.js';
import type { WebhookStats } from './webhook-stats.js';

/** How often Node checks the header and request timeouts (its default, 30 s, would hold sockets that long). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

export interface Listener {
  url: string;
  port: number;
  close(): Promise<void>;
}

export type ConnectionLimits = Pick<
  ReceiverLimits,
  'maxConnections' | 'maxConnectionsPerSource' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'idleTimeoutMs'
>;

/**
 * Listens on `host:port` (0: a free port) with `handler`; `limits` and `counters` given, the
 * connection defences apply and are counted. @throws Error naming `what` when the port cannot be bound.
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  where: { host: string; port: number; what: string },
  limits: ConnectionLimits,
  counters?: WebhookStats['connections'],
): Promise<Listener> {
  const server: Server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  // A socket on which nothing moves for as long as a whole request may take is closed (a stalled
  // response, a sender that stopped reading); the header, request and keep-alive timeouts cover the rest.
  server.setTimeout(limits.requestTimeoutMs, (socket: Socket) => {
    if (counters) counters.timedOut += 1;
    socket.destroy();
  });
  server.on('drop', () => {
    if (counters) counters.overLimit += 1;
  });
  const perSource = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const source = sourceKey(socket.remoteAddress);
    const open = perSource.get(source) ?? 0;
    if (open >= limits.maxConnectionsPerSource) {
      if (counters) counters.overSourceLimit += 1;
      socket.destroy();
      return;
    }
    perSource.set(source, open + 1);
    if (counters) counters.open += 1;
    socket.once('close', () => {
      const left = (perSource.get(source) ?? 1) - 1;
      if (left > 0) perSource.set(source, left);
      else perSource.delete(source);
      if (counters) counters.open -= 1;
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // Node calls this for the header and request timeouts too; with a listener, closing is ours.
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    if (counters && err.code !== 'ECONNRESET') counters[timedOut ? 'timedOut' : 'badRequests'] += 1;
    if (!socket.writable || timedOut || err.code === 'ECONNRESET') return void socket.destroy();
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
  });

  const { host, port, what } = where;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) =>
      reject(new Error(`The ${what} could not listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
