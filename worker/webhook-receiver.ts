/**
 * The push webhook receiver: `POST /a2a/push/<workflowId>/<taskId>/<configId>`. Every request is
 * checked in this order, and only a request that passes all checks can reach a workflow (as a
 * small `taskUpdated` signal; the delegation then reads the task itself):
 *
 * 1. the sender's request rate, then the receiver's (429 with `Retry-After`)
 * 2. the route and the method → 404, 405
 * 3. body size (declared `Content-Length`, then counted while reading) → 413
 * 4. the path's task and config ids are at most 256 characters → 400
 * 5. a credential: `Authorization: Bearer …`, or `X-A2A-Notification-Token` (A2A 0.3) → 401
 * 6. the credential is the HMAC of (workflowId, taskId, configId) under a receiver secret,
 *    compared in constant time → 403
 * 7. `Content-Type` `application/a2a+json` or `application/json` → 415
 * 8. JSON, and a StreamResponse (1.0) or a `kind`-tagged task event (0.3) → 400
 * 9. the body's message id and state are at most 256 characters → 400
 * 10. the body's task id is the path's → 403
 *
 * A verified delivery that may end a wait then goes to the {@link DeliveryCoalescer}: signalled
 * at once (200), or in the background when it shows a question (202 `accepted`), coalesced into
 * the next signal (202), already signalled (200 `duplicate`), not
 * wanted by the delegation (200 `stale`: the question it already answered, see
 * webhook-notifier.ts), or its workflow has ended (410). Connections are capped and timed out by the listener
 * (webhook-listener.ts).
 *
 * A flood costs counters, not lines or spans: refusals are counted by reason and logged
 * sampled (the first of each reason in 10 s, then a count), never with the credential; a span
 * is made per signal, not per request. The counters are not served on this listener: anyone can
 * reach it, and they tell how busy the receiver is and which checks senders fail.
 * {@link startWebhookReceiver} serves them on a separate listener (`statsPort`, loopback by default).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isPushCredential,
  verifiedTraceContext,
  type PushBinding,
  type TraceCarrier,
} from '../activities/push-credential.js';
import { parsePushPath, PUSH_PATH_PREFIX, traceQueryOf } from '../activities/push-url.js';
import { isInterruptedState } from '../a2a/index.js';
import type { TaskUpdatedNotice } from '../contract/delegation-types.js';
import { DeliveryCoalescer } from './webhook-coalescer.js';
import {
  MalformedDeliveryError,
  MAX_DELIVERY_ID_LENGTH,
  oversizedId,
  parseDelivery,
  worthSignal,
} from './webhook-delivery.js';
import { defaultReceiverLimits, RequestLimiter, sourceKey, type ReceiverLimits } from './webhook-limits.js';
import { listen } from './webhook-listener.js';
import { printable, SampledLog } from './webhook-log.js';
import type { NotifyOutcome, PushNotifier } from './webhook-notifier.js';
import { emptyStats, REJECTION_STATUS, type RejectionReason, type WebhookStats } from './webhook-stats.js';
import { startProcessGauges, type ProcessGaugeReader } from './process-gauges.js';

/** 1 MiB: a delivery is one task event; the SDK's own SSE limit is 4 MiB per event. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The path of the counters (`GET`, on the stats listener only). */
export const STATS_PATH = `${PUSH_PATH_PREFIX}stats`;

/** `POST` here (stats listener only) restarts the peak memory and event-loop delay the counters show. */
export const STATS_RESET_PATH = `${STATS_PATH}/reset`;

/** What the webhook receiver needs: a Temporal client to signal with and the secrets that bind credentials. See [docs/push.md](../docs/push.md). */
export interface WebhookReceiverOptions {
  /** The receiver secret (A2A_WEBHOOK_SECRET); per-delegation credentials are derived from it. */
  secret: string;
  /** Secrets being rotated out: credentials derived from them are still accepted until removed. */
  previousSecrets?: readonly string[];
  /** Delivers the notice to the workflow (see `temporalNotifier`). */
  notify: PushNotifier;
  /** Larger bodies are refused with 413. @default 1 MiB */
  maxBodyBytes?: number;
  /** Request rates, signal interval, connection caps and timeouts. @default the limits of [docs/push.md](../docs/push.md#limits-and-their-settings) */
  limits?: Partial<ReceiverLimits>;
  /** Where refusals and failures are logged, sampled (see the file's comment). @default console */
  logger?: Pick<Console, 'warn' | 'error'>;
  /** Sees every request's outcome and each signal (tracing, metrics). */
  observer?: DeliveryObserver;
}

/** A hook on deliveries, for telemetry kept outside this file. */
export interface DeliveryObserver {
  /** How a request ended: `signaled`, `accepted`, `coalesced`, `duplicate`, `progress`, `stale`, `gone`, `unavailable` or a refusal reason. */
  outcome(outcome: string): void;
  /**
   * A signal to a delegation (at once, or later for coalesced deliveries): `send` runs inside its
   * span. `link` is the trace context the receiver issued for this push config, verified; never
   * one a sender chose.
   */
  signal(
    binding: PushBinding,
    link: TraceCarrier | undefined,
    send: () => Promise<NotifyOutcome>,
  ): Promise<NotifyOutcome>;
}

/** The push webhook receiver: verifies agents' deliveries and signals the delegations they belong to. See [docs/push.md](../docs/push.md). */
export interface WebhookReceiver {
  /**
   * The request listener: mount it on a server of your own, or use {@link startWebhookReceiver}
   * (the connection caps and timeouts of `limits` are the listener's: on a server of your own, set them there).
   */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** `GET /a2a/push/stats` (404 elsewhere): mount it only where senders cannot reach it. */
  handleStats(req: IncomingMessage, res: ServerResponse): void;
  /** A copy of the counters. */
  stats(): WebhookStats;
  /** Stops the signals still due for coalesced deliveries, and the log's timer; settles once the signals under way have. */
  stop(): Promise<void>;
}

/** What the coalescer signals: the notice, and the verified trace context of its config. */
interface Signal {
  notice: TaskUpdatedNotice;
  link: TraceCarrier | undefined;
}

/** What {@link startWebhookReceiver} adds: the listener's connection counters and the process gauges. */
interface ListenerParts {
  connections?: WebhookStats['connections'];
  processGauges?: ProcessGaugeReader;
}

interface Refusal {
  message: string;
  binding?: PushBinding;
  headers?: Record<string, string>;
}

/** Creates the push webhook receiver's request handler, without a listener of its own (to mount it in your own server). */
export function createWebhookReceiver(options: WebhookReceiverOptions & ListenerParts): WebhookReceiver {
  const secrets = [options.secret, ...(options.previousSecrets ?? [])].filter((s) => s.length > 0);
  if (secrets.length === 0) throw new Error('The webhook receiver needs a secret: set A2A_WEBHOOK_SECRET.');
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits = { ...defaultReceiverLimits(), ...options.limits };
  const log = new SampledLog(options.logger ?? console);
  const observer = options.observer;
  const stats = emptyStats();
  if (options.connections) stats.connections = options.connections;
  const limiter = new RequestLimiter(limits);
  const coalescer = new DeliveryCoalescer<Signal>({
    intervalMs: limits.signalIntervalMs,
    signal: (binding, { notice, link }) => {
      const send = () => options.notify(binding.workflowId, notice);
      return observer ? observer.signal(binding, link, send) : send();
    },
    // Deliveries that show different statuses become a notice of none: the delegation ignores a
    // notice that shows the question it already answered, and the later of two deliveries (a stale
    // snapshot, say) must not hide the news of the earlier one. A notice without a state always reads.
    merge: (pending, next) =>
      pending.notice.state === next.notice.state && pending.notice.messageId === next.notice.messageId
        ? next
        : { ...next, notice: { taskId: next.notice.taskId, kind: next.notice.kind, configId: next.notice.configId } },
    trailing(binding, outcome, error) {
      if (outcome === 'signaled') {
        stats.signaled += 1;
        stats.trailing += 1;
      } else if (outcome === 'stale') stats.stale += 1;
      else if (outcome === 'gone') stats.gone += 1;
      else {
        stats.failed += 1;
        log.write('unavailable', 'error', () => notSignaled(binding, error));
      }
    },
  });

  const finish = (
    res: ServerResponse,
    req: IncomingMessage,
    outcome: string,
    status: number,
    body: unknown,
    headers?: Record<string, string>,
  ) => {
    observer?.outcome(outcome);
    reply(req, res, status, body, headers);
  };

  const refuse = (req: IncomingMessage, res: ServerResponse, reason: RejectionReason, refusal: Refusal) => {
    const status = REJECTION_STATUS[reason];
    stats.rejected[reason] += 1;
    // A sender over its rate is not worth a line of its own: the summary counts it.
    if (reason === 'rate-limited') log.count(reason, 'warn');
    else {
      log.write(reason, 'warn', () => {
        const about = refusal.binding
          ? ` for workflow ${printable(refusal.binding.workflowId)} task ${printable(refusal.binding.taskId)} config ${printable(refusal.binding.configId)}`
          : ` at ${printable(req.url ?? '')}`;
        return `webhook: refused ${req.method ?? '?'} (${status} ${reason})${about} from ${req.socket.remoteAddress ?? '?'}`;
      });
    }
    const headers: Record<string, string> = { ...refusal.headers };
    if (reason === 'unauthenticated') headers['WWW-Authenticate'] = 'Bearer realm="a2a-push"';
    if (reason === 'method-not-allowed') headers.Allow = 'POST';
    finish(res, req, reason, status, { error: { status, reason, message: refusal.message } }, headers);
  };
  const tooLong = (field: string) =>
    `The ${field} is longer than ${MAX_DELIVERY_ID_LENGTH} characters; no delegation takes such a delivery.`;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.received += 1;
    const limited = limiter.admit(sourceKey(req.socket.remoteAddress));
    if (limited) {
      const seconds = Math.max(1, Math.ceil(limited.retryAfterMs / 1000));
      return refuse(req, res, 'rate-limited', {
        message: `Too many requests ${limited.limit === 'source' ? 'from your address' : 'at this receiver'}; try again in ${seconds} s.`,
        // The connection stays: a 429 on a kept-alive connection is the cheapest answer there is
        // (closing it made a flood cost the worker more: new connections, not fewer requests).
        headers: { 'Retry-After': String(seconds) },
      });
    }
    const binding = parsePushPath(req.url ?? '');
    if (!binding) {
      return refuse(req, res, 'not-found', {
        message: `Deliveries go to POST ${PUSH_PATH_PREFIX}<workflowId>/<taskId>/<configId>.`,
      });
    }
    if (req.method !== 'POST')
      return refuse(req, res, 'method-not-allowed', { message: 'Push deliveries are POSTed.', binding });

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit)
      return refuse(req, res, 'too-large', { message: `The body exceeds ${limit} bytes.`, binding });
    if (oversizedId({ taskId: binding.taskId }) || binding.configId.length > MAX_DELIVERY_ID_LENGTH)
      return refuse(req, res, 'id-too-long', { message: tooLong('task or config id in the path'), binding });

    const credential = presentedCredential(req);
    if (!credential) {
      return refuse(req, res, 'unauthenticated', {
        message: 'A credential is required: Authorization: Bearer <credentials> from the push config.',
        binding,
      });
    }
    if (!isPushCredential(credential, secrets, binding)) {
      return refuse(req, res, 'bad-credential', {
        message: 'The credential is not valid for this workflow, task and push config.',
        binding,
      });
    }

    if (!isJsonMediaType(req.headers['content-type'])) {
      return refuse(req, res, 'unsupported-media-type', {
        message: 'Send the body as application/a2a+json or application/json.',
        binding,
      });
    }
    const body = await readBody(req, limit);
    if (body === 'too-large')
      return refuse(req, res, 'too-large', { message: `The body exceeds ${limit} bytes.`, binding });

    let delivery;
    try {
      delivery = parseDelivery(body.toString('utf8'));
    } catch (err) {
      if (err instanceof MalformedDeliveryError && err.oversizedId) {
        return refuse(req, res, 'id-too-long', { message: tooLong(`body's ${err.oversizedId}`), binding });
      }
      if (err instanceof MalformedDeliveryError)
        return refuse(req, res, 'malformed', { message: err.message, binding });
      throw err;
    }
    const oversized = oversizedId({ taskId: delivery.taskId, messageId: delivery.messageId, state: delivery.state });
    if (oversized) return refuse(req, res, 'id-too-long', { message: tooLong(`body's ${oversized}`), binding });
    if (delivery.taskId !== binding.taskId) {
      return refuse(req, res, 'task-mismatch', {
        message: 'The body is about another task than the one this URL and credential belong to.',
        binding,
      });
    }

    if (!worthSignal(delivery)) {
      stats.progress += 1;
      return finish(res, req, 'progress', 200, { status: 'progress' });
    }
    const { kind, state, messageId } = delivery;
    const notice: TaskUpdatedNotice = {
      taskId: binding.taskId,
      kind,
      ...(state ? { state } : {}),
      ...(messageId ? { messageId } : {}),
      configId: binding.configId,
    };
    // The span link comes from the receiver's own tag on the config's URL, or there is none.
    const link = verifiedTraceContext(traceQueryOf(req.url ?? ''), secrets, binding);
    let outcome;
    try {
      // A question is signalled in the background: the notifier first asks the delegation whether
      // it is stale (webhook-notifier.ts), which waits for a workflow task under way, and SDK
      // senders deliver a task's events one after another, so the news after it would wait too.
      const asks = state !== undefined && isInterruptedState(state);
      outcome = await coalescer.offer(binding, { notice, link }, delivery.generation, asks);
    } catch (err) {
      stats.failed += 1;
      log.write('unavailable', 'error', () => notSignaled(binding, err));
      return finish(
        res,
        req,
        'unavailable',
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
    switch (outcome) {
      case 'gone':
        // The delivery is genuine but nobody will read it: 410 tells a well-behaved sender to stop.
        stats.gone += 1;
        return finish(res, req, 'gone', 410, {
          error: {
            status: 410,
            reason: 'gone',
            message: 'The delegation this task belonged to has ended; delete the push config.',
          },
        });
      case 'accepted':
        stats.accepted += 1;
        return finish(res, req, 'accepted', 202, { status: 'accepted' });
      case 'coalesced':
        stats.coalesced += 1;
        return finish(res, req, 'coalesced', 202, { status: 'coalesced' });
      case 'duplicate':
        stats.duplicate += 1;
        return finish(res, req, 'duplicate', 200, { status: 'duplicate' });
      case 'stale':
        stats.stale += 1;
        return finish(res, req, 'stale', 200, { status: 'stale' });
      case 'signaled':
        stats.signaled += 1;
        return finish(res, req, 'signaled', 200, { status: 'signaled' });
    }
  }

  const snapshot = (): WebhookStats => ({
    ...structuredClone(stats),
    ...(options.processGauges ? { process: options.processGauges.read() } : {}),
  });

  return {
    handle(req, res) {
      serve(req, res).catch((err: unknown) => {
        observer?.outcome('internal');
        log.write(
          'internal',
          'error',
          () => `webhook: internal error at ${printable(req.url ?? '')}: ${printable((err as Error).message)}`,
        );
        if (!res.headersSent)
          reply(req, res, 500, {
            error: { status: 500, reason: 'internal', message: 'The receiver failed; the delivery was not taken.' },
          });
        else res.destroy();
      });
    },
    handleStats(req, res) {
      const path = (req.url ?? '').split('?', 1)[0];
      if (path === STATS_RESET_PATH && req.method === 'POST') {
        options.processGauges?.reset();
        return reply(req, res, 200, snapshot());
      }
      if (path !== STATS_PATH) return reply(req, res, 404, { error: { status: 404, message: `Only ${STATS_PATH}.` } });
      if (req.method !== 'GET')
        return reply(
          req,
          res,
          405,
          { error: { status: 405, message: 'The stats are read with GET.' } },
          { Allow: 'GET' },
        );
      reply(req, res, 200, snapshot());
    },
    stats: snapshot,
    async stop() {
      await coalescer.close();
      log.flush();
    },
  };
}

/** The log line of a signal Temporal did not take. */
function notSignaled(binding: PushBinding, err: unknown): string {
  return `webhook: could not signal workflow ${printable(binding.workflowId)} (task ${printable(binding.taskId)}): ${printable((err as Error)?.message ?? String(err))}`;
}

/** Where the webhook receiver listens, and the limits and observer of its listener. See [docs/push.md](../docs/push.md). */
export interface WebhookListenOptions extends WebhookReceiverOptions {
  /** @default '127.0.0.1' (put a TLS-terminating reverse proxy in front; see docs/push.md) */
  host?: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Serve `GET /a2a/push/stats` on a listener of its own at this port (0: a free one). @default no stats listener */
  statsPort?: number;
  /** Where the stats listener binds. @default '127.0.0.1' */
  statsHost?: string;
}

/** A webhook receiver listening on its port, and how to stop it. See [docs/push.md](../docs/push.md). */
export interface RunningWebhookReceiver extends WebhookReceiver {
  /** `http://host:port` actually bound. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** `http://host:port` of the stats listener, when one was asked for. */
  statsUrl?: string;
  /** Stops listening and ends open connections. Idempotent. */
  close(): Promise<void>;
}

/** Starts the receiver (and its stats listener) on HTTP servers of their own. @throws when a port cannot be bound. */
export async function startWebhookReceiver(options: WebhookListenOptions): Promise<RunningWebhookReceiver> {
  const limits = { ...defaultReceiverLimits(), ...options.limits };
  const gauges = options.statsPort === undefined ? undefined : startProcessGauges();
  const connections = emptyStats().connections;
  const receiver = createWebhookReceiver({ ...options, limits, connections, processGauges: gauges });
  const main = await listen(
    receiver.handle,
    { host: options.host ?? '127.0.0.1', port: options.port ?? 0, what: 'webhook receiver' },
    limits,
    connections,
  ).catch(async (err: unknown) => {
    await receiver.stop();
    gauges?.stop();
    throw err;
  });
  const stats =
    options.statsPort === undefined
      ? undefined
      : await listen(
          receiver.handleStats,
          { host: options.statsHost ?? '127.0.0.1', port: options.statsPort, what: 'stats listener' },
          { ...limits, maxConnectionsPerSource: limits.maxConnections },
        ).catch(async (err: unknown) => {
          await main.close();
          await receiver.stop();
          gauges?.stop();
          throw err;
        });
  let closing: Promise<void> | undefined;
  return {
    ...receiver,
    url: main.url,
    port: main.port,
    statsUrl: stats?.url,
    close: () =>
      (closing ??= Promise.all([main.close(), stats?.close()]).then(async () => {
        await receiver.stop();
        gauges?.stop();
      })),
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
