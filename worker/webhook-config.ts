/**
 * Push mode's settings, read from the environment: what the worker's activities need to
 * register push configs (`A2A_WEBHOOK_URL`, `A2A_WEBHOOK_SECRET`), and what the receiver needs
 * to verify deliveries (the secret, its bind address and limits).
 */
import { z } from 'zod';
import { isLoopbackHost } from '../a2a/outbound-policy.js';
import type { WebhookDeps } from '../activities/deps.js';
import { stripUndefined } from '../platform/strip-undefined.js';
import { defaultReceiverLimits, type ReceiverLimits } from './webhook-limits.js';
import { DEFAULT_MAX_BODY_BYTES } from './webhook-receiver.js';

/** The receiver's port when none is given. */
export const DEFAULT_WEBHOOK_PORT = 8787;

const count = z.coerce.number().int().min(0);
const positive = z.coerce.number().int().positive();

const secret = z.string().min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 32`)' });

const WebhookEnvSchema = z.object({
  /** The receiver's public base URL: what agents POST to (behind a TLS-terminating proxy in production). */
  A2A_WEBHOOK_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://hooks.example.com' })
    .optional(),
  /** The receiver secret the per-delegation credentials are derived from. */
  A2A_WEBHOOK_SECRET: secret.optional(),
  /** Allows an `http:` A2A_WEBHOOK_URL on a host that is not loopback (agents would send credentials in clear). */
  A2A_WEBHOOK_ALLOW_INSECURE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  /** Comma-separated secrets being rotated out: the receiver still accepts credentials derived from them. */
  A2A_WEBHOOK_PREVIOUS_SECRETS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(secret)),
  A2A_WEBHOOK_HOST: z.string().min(1).default('127.0.0.1'),
  A2A_WEBHOOK_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_WEBHOOK_PORT),
  A2A_WEBHOOK_MAX_BODY_BYTES: z.coerce.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
  /** The counters' own listener (`GET /a2a/push/stats`); unset = not served over HTTP. */
  A2A_WEBHOOK_STATS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  A2A_WEBHOOK_STATS_HOST: z.string().min(1).default('127.0.0.1'),
  /** The receiver's limits (webhook-limits.ts); unset ones keep their defaults. */
  A2A_WEBHOOK_MAX_REQUESTS_PER_SECOND: count.optional(),
  A2A_WEBHOOK_MAX_REQUESTS_PER_SOURCE: count.optional(),
  A2A_WEBHOOK_SIGNAL_INTERVAL_MS: count.optional(),
  A2A_WEBHOOK_MAX_CONNECTIONS: positive.optional(),
  A2A_WEBHOOK_MAX_CONNECTIONS_PER_SOURCE: positive.optional(),
  A2A_WEBHOOK_HEADERS_TIMEOUT_MS: positive.optional(),
  A2A_WEBHOOK_REQUEST_TIMEOUT_MS: positive.optional(),
  A2A_WEBHOOK_IDLE_TIMEOUT_MS: positive.optional(),
});

/** Push mode's settings, read from the environment: the public URL, the secrets, where the receiver binds and its limits. See [docs/push.md](../docs/push.md). */
export interface WebhookReceiverConfig {
  /** The secret push credentials are derived from (`A2A_WEBHOOK_SECRET`). */
  secret: string;
  /** Secrets used before, still accepted while their push configs live (`A2A_WEBHOOK_PREVIOUS_SECRETS`). */
  previousSecrets: string[];
  /** The address the receiver listens on (`A2A_WEBHOOK_HOST`). */
  host: string;
  /** The port the receiver listens on (`A2A_WEBHOOK_PORT`). */
  port: number;
  /** The largest delivery accepted (`A2A_WEBHOOK_MAX_BODY_BYTES`). */
  maxBodyBytes: number;
  /** The stats listener's port; undefined = no stats listener. */
  statsPort?: number;
  /** The stats listener's address (`A2A_WEBHOOK_STATS_HOST`). */
  statsHost: string;
  /** The limits set in the environment; the others keep their defaults. */
  limits: Partial<ReceiverLimits>;
}

function parse(env: NodeJS.ProcessEnv) {
  // An empty variable counts as unset (compose files pass `A2A_WEBHOOK_URL=` through).
  const given = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => !key.startsWith('A2A_WEBHOOK_') || value !== ''),
  );
  const parsed = WebhookEnvSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Environment variable ${issue.path.join('.')} is invalid: ${issue.message}.`);
  }
  return parsed.data;
}

/**
 * The activities' push settings: both variables set → push mode is available; neither → it is
 * not (`auto` never picks it). @throws Error with a sentence when only one is set or one is invalid.
 */
export function loadWebhookDeps(env: NodeJS.ProcessEnv = process.env): WebhookDeps | undefined {
  const e = parse(env);
  if (!e.A2A_WEBHOOK_URL && !e.A2A_WEBHOOK_SECRET) return undefined;
  if (!e.A2A_WEBHOOK_URL || !e.A2A_WEBHOOK_SECRET) {
    throw new Error(
      `Push mode needs both A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET, but only ${e.A2A_WEBHOOK_URL ? 'A2A_WEBHOOK_URL' : 'A2A_WEBHOOK_SECRET'} is set; set the other one, or unset both to go without push.`,
    );
  }
  const url = new URL(e.A2A_WEBHOOK_URL);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !e.A2A_WEBHOOK_ALLOW_INSECURE) {
    throw new Error(
      `A2A_WEBHOOK_URL is plain http to ${url.host}, which is not loopback: agents would send each delegation's push credential in clear; use https (a TLS-terminating proxy), or set A2A_WEBHOOK_ALLOW_INSECURE=true on a network you trust.`,
    );
  }
  return { publicUrl: e.A2A_WEBHOOK_URL, secret: e.A2A_WEBHOOK_SECRET };
}

/** The receiver's settings; flags (`overrides`) win over the environment. @throws Error when no secret is set. */
export function loadWebhookReceiverConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Pick<WebhookReceiverConfig, 'host' | 'port' | 'statsPort'>> = {},
): WebhookReceiverConfig {
  const e = parse(env);
  if (!e.A2A_WEBHOOK_SECRET) {
    throw new Error(
      "The webhook receiver needs A2A_WEBHOOK_SECRET (the same value as the workers'); set it, at least 32 characters.",
    );
  }
  return {
    secret: e.A2A_WEBHOOK_SECRET,
    previousSecrets: e.A2A_WEBHOOK_PREVIOUS_SECRETS,
    host: e.A2A_WEBHOOK_HOST,
    port: e.A2A_WEBHOOK_PORT,
    maxBodyBytes: e.A2A_WEBHOOK_MAX_BODY_BYTES,
    statsPort: e.A2A_WEBHOOK_STATS_PORT,
    statsHost: e.A2A_WEBHOOK_STATS_HOST,
    limits: receiverLimits(e),
    ...stripUndefined(overrides),
  };
}

function receiverLimits(e: ReturnType<typeof parse>): Partial<ReceiverLimits> {
  const limits = stripUndefined({
    requestsPerSecond: e.A2A_WEBHOOK_MAX_REQUESTS_PER_SECOND,
    requestsPerSecondPerSource: e.A2A_WEBHOOK_MAX_REQUESTS_PER_SOURCE,
    signalIntervalMs: e.A2A_WEBHOOK_SIGNAL_INTERVAL_MS,
    maxConnections: e.A2A_WEBHOOK_MAX_CONNECTIONS,
    maxConnectionsPerSource: e.A2A_WEBHOOK_MAX_CONNECTIONS_PER_SOURCE,
    headersTimeoutMs: e.A2A_WEBHOOK_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.A2A_WEBHOOK_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: e.A2A_WEBHOOK_IDLE_TIMEOUT_MS,
  });
  const { headersTimeoutMs, requestTimeoutMs } = { ...defaultReceiverLimits(), ...limits };
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(
      `A2A_WEBHOOK_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) is longer than A2A_WEBHOOK_REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request; shorten the one or lengthen the other.`,
    );
  }
  return limits;
}
