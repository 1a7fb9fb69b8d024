/** An undici MockAgent for one fake agent origin, with call history and helpers for SSE replies. */
import { MockAgent, type Interceptable } from 'undici';

export const ORIGIN = 'http://agent.test';

export interface MockedAgent {
  agent: MockAgent;
  pool: Interceptable;
  /** Every request made so far, oldest first. */
  calls(): Array<{ method: string; path: string; fullUrl: string; headers: Record<string, string>; body: unknown }>;
  close(): Promise<void>;
}

export function mockAgent(): MockedAgent {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  return {
    agent,
    pool,
    calls: () =>
      (agent.getCallHistory()?.calls() ?? []).map((call) => ({
        method: call.method,
        path: call.path,
        fullUrl: call.fullUrl,
        headers: normaliseHeaders(call.headers),
        body: typeof call.body === 'string' && call.body !== '' ? (JSON.parse(call.body) as unknown) : call.body,
      })),
    close: () => agent.close(),
  };
}

function normaliseHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
  } else if (headers && typeof headers === 'object') {
    for (const [k, v] of Object.entries(headers as Record<string, unknown>))
      out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** An SSE body: one `data:` event per value (strings are sent verbatim). */
export function sseBody(...events: unknown[]): string {
  return events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
}

export const SSE_HEADERS = { headers: { 'content-type': 'text/event-stream' } };
export const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
export const A2A_JSON_HEADERS = { headers: { 'content-type': 'application/a2a+json; charset=utf-8' } };

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
