import type { Dispatcher } from 'undici';
import { createA2AClient, type A2AClient, type A2ALimits } from '../a2a/index.js';
import type { AgentRef } from '../contract/delegation-types.js';
import type { A2ATelemetry } from '../telemetry/a2a-telemetry.js';
import type { AgentRegistry } from './agent-registry.js';
import type { AgentCardCache } from './card-cache.js';

/** What the delegation activities need from their worker; built once by `createActivities`. */
export interface ActivityDeps {
  registry: AgentRegistry;
  cards: AgentCardCache;
  /** undici dispatcher for every agent request (connection pooling; tests pass a MockAgent). */
  dispatcher?: Dispatcher;
  /** Push mode: where agents deliver notifications; unset = push is never chosen by `auto`. */
  webhook?: WebhookDeps;
  /** Per-request timeout of unary calls. @default 30_000 */
  requestTimeoutMs: number;
  /** Caps on what agents may send (bytes, artifacts, parts, JSON depth). @default DEFAULT_LIMITS */
  limits?: Partial<A2ALimits>;
  /** Spans, trace context and metrics of agent requests; unset = none. */
  telemetry?: A2ATelemetry;
}

/** Push mode's receiver, as the activities see it. */
export interface WebhookDeps {
  /** The receiver's public base URL, e.g. `https://hooks.example.com` (configs point at `<publicUrl>/a2a/push/...`). */
  publicUrl: string;
  /** The receiver secret (A2A_WEBHOOK_SECRET): credentials are derived from it, never stored. */
  secret: string;
}

/** An A2A client for `agent`, with its credential resolved from the registry on every request. */
export function clientFor(deps: ActivityDeps, agent: AgentRef): A2AClient {
  const { auth } = deps.registry.locate(agent.name);
  const client = createA2AClient(
    { endpoint: agent.endpoint },
    {
      dispatcher: deps.dispatcher,
      auth,
      timeoutMs: deps.requestTimeoutMs,
      limits: deps.limits,
      observer: deps.telemetry?.observer,
    },
  );
  return deps.telemetry ? deps.telemetry.wrap(client, agent.name) : client;
}
