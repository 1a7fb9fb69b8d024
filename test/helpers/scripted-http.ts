/**
 * A tiny HTTP server on 127.0.0.1:0 that answers from a script of routes, for faults the
 * official SDK would never produce (garbage bodies, invalid tasks). Loud when a route is missing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ScriptedServer {
  baseUrl: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startScriptedServer(routes: Record<string, Route>): Promise<ScriptedServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const key = `${req.method} ${req.url?.split('?')[0]}`;
      requests.push(key);
      const route = routes[key];
      if (!route) {
        res.writeHead(599, { 'content-type': 'text/plain' }).end(`scripted server has no route for ${key}`);
        return;
      }
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.closeAllConnections() ?? server.close(() => resolve())),
  };
}

export function json(status: number, value: unknown): Route {
  return (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** A valid 1.0 agent card whose HTTP+JSON interface is served by the scripted server itself. */
export function cardFor(baseUrl: string) {
  return {
    name: 'Scripted Agent',
    description: 'Answers from a script',
    version: '0.0.1',
    supportedInterfaces: [{ url: `${baseUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['test'] }],
  };
}
