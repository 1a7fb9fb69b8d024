/**
 * A real HTTP server on 127.0.0.1:0 whose answers are scripted per request, for faults that a
 * MockAgent cannot produce: dropped connections, silence, slow streams. It tracks every socket so
 * tests can wait until the client has really released its connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ScriptedServer {
  url: string;
  /** Queue the handler of the next request (FIFO); unscripted requests get a 500. */
  next(handler: Handler): void;
  /** Resolves when the n-th request (1-based) has arrived, with its body read. */
  request(n: number): Promise<{ req: IncomingMessage; body: string }>;
  /** Resolves when no client socket is open any more. */
  allSocketsClosed(): Promise<void>;
  openSockets(): number;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const handlers: Handler[] = [];
  const arrived: Array<{ req: IncomingMessage; body: string }> = [];
  const waiters: Array<{ n: number; resolve: (r: { req: IncomingMessage; body: string }) => void }> = [];
  const sockets = new Set<Socket>();
  let closedWaiters: Array<() => void> = [];

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry = { req, body };
      arrived.push(entry);
      for (const w of waiters.filter((w) => w.n === arrived.length)) w.resolve(entry);
      const handler = handlers.shift();
      if (handler) handler(req, res, body);
      else res.writeHead(500).end('unscripted request');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) {
        const ws = closedWaiters;
        closedWaiters = [];
        for (const w of ws) w();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    next: (handler) => handlers.push(handler),
    request: (n) => {
      const done = arrived[n - 1];
      if (done) return Promise.resolve(done);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    allSocketsClosed: () =>
      sockets.size === 0 ? Promise.resolve() : new Promise((resolve) => closedWaiters.push(resolve)),
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes SSE headers and the given `data:` events, leaving the response open. */
export function openSse(res: ServerResponse, ...events: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
}

export function json(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType }).end(typeof body === 'string' ? body : JSON.stringify(body));
}
