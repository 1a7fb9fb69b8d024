/**
 * The push webhook receiver: `POST /a2a/push/<workflowId>/<taskId>`. Every request is checked in
 * this order, and only a request that passes all checks reaches a workflow (as a small
 * `taskUpdated` signal; the delegation then reads the task itself):
 *
 * 1. body size (declared `Content-Length`, then counted while reading) → 413
 * 2. the path's task id is at most 256 characters → 400
 * 3. a credential: `Authorization: Bearer …`, or `X-A2A-Notification-Token` (A2A 0.3) → 401
 * 4. the credential is the HMAC of (workflowId, taskId) under the receiver secret, compared in
 *    constant time → 403
 * 5. `Content-Type` `application/a2a+json` or `application/json` → 415
 * 6. JSON, and a StreamResponse (1.0) or a `kind`-tagged task event (0.3) → 400
 * 7. the body's message id and state are at most 256 characters → 400
 * 8. the body's task id is the path's → 403
 *
 * Refusals are counted by reason and logged one line each, never with the credential. The
 * counters are not served on this listener: anyone can reach it, and they tell how busy the
 * receiver is and which checks senders fail. {@link startWebhookReceiver} serves them on a
 * separate listener (`statsPort`, loopback by default).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPushCredential } from '../activities/push-credential.js';
import { parsePushPath, PUSH_PATH_PREFIX } from '../activities/push-url.js';
import {
  MalformedDeliveryError,
  MAX_DELIVERY_ID_LENGTH,
  oversizedId,
  parseDelivery,
  worthSignal,
} from './webhook-delivery.js';
import type { PushNotifier } from './webhook-notifier.js';
import { emptyStats, REJECTION_STATUS, type RejectionReason, type WebhookStats } from './webhook-stats.js';

/** 1 MiB: a delivery is one task event; the SDK's own SSE limit is 4 MiB per event. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The path of the counters (`GET`, on the stats listener only). */
export const STATS_PATH = `${PUSH_PATH_PREFIX}stats`;

export interface WebhookReceiverOptions {
  /** The receiver secret (A2A_WEBHOOK_SECRET); per-delegation credentials are derived from it. */
  secret: string;
  /** Secrets being rotated out: credentials derived from them are still accepted until removed. */
  previousSecrets?: readonly string[];
  /** Delivers the notice to the workflow (see `temporalNotifier`). */
  notify: PushNotifier;
  /** Larger bodies are refused with 413. @default 1 MiB */
  maxBodyBytes?: number;
  /** Where refusals and failures are logged, one line each. @default console */
  logger?: Pick<Console, 'warn' | 'error'>;
  /** Sees each delivery (tracing, metrics): the handling runs inside `run`, `end` says how it ended. */
  observer?: DeliveryObserver;
}

/** A hook on deliveries, for telemetry kept outside this file. */
export interface DeliveryObserver {
  /** A request reached a delivery path (`url` is the request's path and query). */
  delivery(url: string): DeliveryObservation;
}

export interface DeliveryObservation {
  run(handle: () => Promise<void>): Promise<void>;
  /** The credential is valid for these ids (called before the body is read). */
  verified(ids: { workflowId: string; taskId: string }): void;
  /** Once: `signaled`, `progress`, `gone`, `unavailable`, or the reason of the refusal. */
  end(outcome: string): void;
}

export interface WebhookReceiver {
  /** The request listener: mount it on a server of your own, or use {@link startWebhookReceiver}. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** `GET /a2a/push/stats` (404 elsewhere): mount it only where senders cannot reach it. */
  handleStats(req: IncomingMessage, res: ServerResponse): void;
  /** A copy of the counters. */
  stats(): WebhookStats;
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const secrets = [options.secret, ...(options.previousSecrets ?? [])].filter((s) => s.length > 0);
  if (secrets.length === 0) throw new Error('The webhook receiver needs a secret: set A2A_WEBHOOK_SECRET.');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const logger = options.logger ?? console;
  const stats = emptyStats();
  const observed = new WeakMap<IncomingMessage, DeliveryObservation>();
  const ended = (req: IncomingMessage, outcome: string) => {
    observed.get(req)?.end(outcome);
    observed.delete(req);
  };

  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    reason: RejectionReason,
    message: string,
    ids?: { workflowId: string; taskId: string },
  ) => {
    const status = REJECTION_STATUS[reason];
    stats.rejected[reason] += 1;
    ended(req, reason);
    const about = ids
      ? ` for workflow ${printable(ids.workflowId)} task ${printable(ids.taskId)}`
      : ` at ${printable(req.url ?? '')}`;
    logger.warn(
      `webhook: refused ${req.method ?? '?'} (${status} ${reason})${about} from ${req.socket.remoteAddress ?? '?'}`,
    );
    const headers: Record<string, string> = {};
    if (reason === 'unauthenticated') headers['WWW-Authenticate'] = 'Bearer realm="a2a-push"';
    if (reason === 'method-not-allowed') headers.Allow = 'POST';
    reply(req, res, status, { error: { status, reason, message } }, headers);
  };
  const tooLong = (field: string) =>
    `The ${field} is longer than ${MAX_DELIVERY_ID_LENGTH} characters; no delegation takes such a delivery.`;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ids = parsePushPath(req.url ?? '');
    if (!ids) return refuse(req, res, 'not-found', `Deliveries go to POST ${PUSH_PATH_PREFIX}<workflowId>/<taskId>.`);
    stats.received += 1;
    const observation = options.observer?.delivery(req.url ?? '');
    if (!observation) return deliver(req, res, ids);
    observed.set(req, observation);
    return observation.run(() => deliver(req, res, ids));
  }

  async function deliver(
    req: IncomingMessage,
    res: ServerResponse,
    ids: { workflowId: string; taskId: string },
  ): Promise<void> {
    if (req.method !== 'POST') return refuse(req, res, 'method-not-allowed', 'Push deliveries are POSTed.', ids);

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit)
      return refuse(req, res, 'too-large', `The body exceeds ${limit} bytes.`, ids);
    if (oversizedId({ taskId: ids.taskId }))
      return refuse(req, res, 'id-too-long', tooLong('task id in the path'), ids);

    const credential = presentedCredential(req);
    if (!credential) {
      return refuse(
        req,
        res,
        'unauthenticated',
        'A credential is required: Authorization: Bearer <credentials> from the push config.',
        ids,
      );
    }
    if (!isPushCredential(credential, secrets, ids.workflowId, ids.taskId)) {
      return refuse(req, res, 'bad-credential', 'The credential is not valid for this workflow and task.', ids);
    }
    observed.get(req)?.verified(ids);

    if (!isJsonMediaType(req.headers['content-type'])) {
      return refuse(
        req,
        res,
        'unsupported-media-type',
        'Send the body as application/a2a+json or application/json.',
        ids,
      );
    }
    const body = await readBody(req, limit);
    if (body === 'too-large') return refuse(req, res, 'too-large', `The body exceeds ${limit} bytes.`, ids);

    let notice;
    try {
      notice = parseDelivery(body.toString('utf8'));
    } catch (err) {
      if (err instanceof MalformedDeliveryError && err.oversizedId) {
        return refuse(req, res, 'id-too-long', tooLong(`body's ${err.oversizedId}`), ids);
      }
      if (err instanceof MalformedDeliveryError) return refuse(req, res, 'malformed', err.message, ids);
      throw err;
    }
    const oversized = oversizedId({ taskId: notice.taskId, messageId: notice.messageId, state: notice.state });
    if (oversized) return refuse(req, res, 'id-too-long', tooLong(`body's ${oversized}`), ids);
    if (notice.taskId !== ids.taskId) {
      return refuse(
        req,
        res,
        'task-mismatch',
        'The body is about another task than the one this URL and credential belong to.',
        ids,
      );
    }

    if (!worthSignal(notice)) {
      stats.progress += 1;
      ended(req, 'progress');
      return reply(req, res, 200, { status: 'progress' });
    }
    let outcome: 'delivered' | 'gone';
    try {
      const { kind, state, messageId } = notice;
      outcome = await options.notify(ids.workflowId, {
        taskId: ids.taskId,
        kind,
        ...(state ? { state } : {}),
        ...(messageId ? { messageId } : {}),
      });
    } catch (err) {
      stats.failed += 1;
      ended(req, 'unavailable');
      logger.error(
        `webhook: could not signal workflow ${printable(ids.workflowId)} (task ${printable(ids.taskId)}): ${(err as Error).message}`,
      );
      return reply(
        req,
        res,
        503,
        {
          error: {
            status: 503,
            reason: 'unavailable',
            message: 'Temporal did not take the notification; try again later.',
          },
        },
        { 'Retry-After': '10' },
      );
    }
    if (outcome === 'gone') {
      // The delivery is genuine but nobody will read it: 410 tells a well-behaved sender to stop.
      stats.gone += 1;
      ended(req, 'gone');
      return reply(req, res, 410, {
        error: {
          status: 410,
          reason: 'gone',
          message: 'The delegation this task belonged to has ended; delete the push config.',
        },
      });
    }
    stats.signaled += 1;
    ended(req, 'signaled');
    reply(req, res, 200, { status: 'signaled' });
  }

  return {
    handle(req, res) {
      serve(req, res).catch((err: unknown) => {
        ended(req, 'internal');
        logger.error(`webhook: internal error at ${printable(req.url ?? '')}: ${(err as Error).message}`);
        if (!res.headersSent)
          reply(req, res, 500, {
            error: { status: 500, reason: 'internal', message: 'The receiver failed; the delivery was not taken.' },
          });
        else res.destroy();
      });
    },
    handleStats(req, res) {
      const path = (req.url ?? '').split('?', 1)[0];
      if (path !== STATS_PATH) return reply(req, res, 404, { error: { status: 404, message: `Only ${STATS_PATH}.` } });
      if (req.method !== 'GET')
        return reply(
          req,
          res,
          405,
          { error: { status: 405, message: 'The stats are read with GET.' } },
          { Allow: 'GET' },
        );
      reply(req, res, 200, structuredClone(stats));
    },
    stats: () => structuredClone(stats),
  };
}

export interface WebhookListenOptions extends WebhookReceiverOptions {
  /** @default '127.0.0.1' (put a TLS-terminating reverse proxy in front; see the README) */
  host?: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Serve `GET /a2a/push/stats` on a listener of its own at this port (0: a free one). @default no stats listener */
  statsPort?: number;
  /** Where the stats listener binds. @default '127.0.0.1' */
  statsHost?: string;
}

export interface RunningWebhookReceiver extends WebhookReceiver {
  /** `http://host:port` actually bound. */
  url: string;
  port: number;
  /** `http://host:port` of the stats listener, when one was asked for. */
  statsUrl?: string;
  /** Stops listening and ends open connections. Idempotent. */
  close(): Promise<void>;
}

/** Starts the receiver (and its stats listener) on HTTP servers of their own. @throws when a port cannot be bound. */
export async function startWebhookReceiver(options: WebhookListenOptions): Promise<RunningWebhookReceiver> {
  const receiver = createWebhookReceiver(options);
  const main = await listen(receiver.handle, options.host ?? '127.0.0.1', options.port ?? 0, 'webhook receiver');
  const stats =
    options.statsPort === undefined
      ? undefined
      : await listen(receiver.handleStats, options.statsHost ?? '127.0.0.1', options.statsPort, 'stats listener').catch(
          async (err: unknown) => {
            await main.close();
            throw err;
          },
        );
  let closing: Promise<void> | undefined;
  return {
    ...receiver,
    url: main.url,
    port: main.port,
    statsUrl: stats?.url,
    close: () => (closing ??= Promise.all([main.close(), stats?.close()]).then(() => undefined)),
  };
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
  what: string,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  // Slow senders cannot hold sockets for long: a delivery is one small POST.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
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

/** The bearer credential, or the 0.3 token header; undefined when neither is there. */
function presentedCredential(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  const token = req.headers['x-a2a-notification-token'];
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/a2a+json' || type === 'application/json';
}

/** The body, or `too-large` as soon as it passes `limit` bytes (the rest is discarded). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      resolve('too-large');
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** Bodies nobody reads are still drained (so the sender sees our answer), up to a bound. */
const DISCARD_LIMIT = 8 * 1024 * 1024;

function reply(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (!req.complete) {
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DISCARD_LIMIT) req.destroy();
    });
    req.resume();
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** An id from the path as a log-safe token (quoted, control characters escaped, bounded). */
function printable(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
