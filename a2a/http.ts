/**
 * The one place that talks to undici. Every request gets: the caller's `AbortSignal`, a
 * timeout, the credentials resolved for this request (headers or query), a byte cap on what it
 * reads, and error classification. Nothing here retries: a failed request becomes a typed error
 * and the caller's retry policy decides.
 *
 * - Unary calls: `timeoutMs` bounds the whole exchange, body included (and replaces undici's
 *   own 300 s header/body timeouts, so a long blocking SendMessage can be allowed for). The body
 *   is counted as it arrives: past `maxBodyBytes` (`maxCardBytes` for a card), or at once when
 *   `Content-Length` announces more, the request is aborted with a ResponseTooLargeError.
 * - Streams: `connectTimeoutMs` bounds the wait for response headers; after that the stream
 *   stays open as long as events keep coming (the idle timer is reset by the reader through
 *   {@link OpenStream.touch}). undici's own 300 s body timeout is switched off for streams, since
 *   a task waiting for input keeps its subscription silent for as long as it waits.
 */
import { request, type Dispatcher } from 'undici';
import { resolveAuth, secretsOf, urlSecrets, type AuthMaterial, type AuthResolver } from './auth.js';
import type { OutboundPolicy } from './outbound-policy.js';
import {
  AbortedError,
  InvalidResponseError,
  ResponseTooLargeError,
  StreamIdleTimeoutError,
  TransportTimeoutError,
  type A2AError,
  type ErrorContext,
} from './errors.js';
import { errorFromNetwork, headerValue, type ErrorScope } from './error-mapping.js';
import { where } from './error-text.js';
import { isEventStream } from './event-stream.js';
import type { OversizedEventSink } from './sse.js';
import { resolveLimits, type A2ALimits } from './limits.js';
import { withLoopTurns } from './loop-turns.js';

import { displayUrl } from './display-url.js';

export { displayUrl };

export interface HttpClientOptions {
  /** undici dispatcher (an `Agent`, `Pool`, or a `MockAgent` in tests). Default: undici's global one. */
  dispatcher?: Dispatcher;
  auth?: AuthResolver;
  userAgent?: string;
  /** Byte caps of what is read. @default DEFAULT_LIMITS */
  limits?: Partial<A2ALimits>;
  /** Where requests may go and which may carry `auth` (checked before every request). @default no check, credentials everywhere */
  policy?: OutboundPolicy;
  /** The scheme the card asks for, named when the agent answers 401/403. */
  authScheme?: string;
  /** Sees every request leave and learns its outcome (tracing, metrics); it may add headers. */
  observer?: HttpObserver;
}

/**
 * A hook on every request, for telemetry kept outside this folder: `request` is called as the
 * request leaves and may return headers to add (a trace context, say: credentials and the
 * caller's headers win over them); `end` is called once, with the response status when the
 * headers arrived, or with the error when none did. What it is told is safe to record: the
 * method, the URL without user info, query or fragment, and the operation.
 * See [docs/observability.md](../docs/observability.md).
 */
export interface HttpObserver {
  /** Called as a request leaves; returns the observation to end when it is answered. */
  request(info: { method: string; url: string; operation?: string | undefined }): HttpObservation | undefined;
}

/** One A2A request being observed (a span, say), ended with its outcome. See [docs/observability.md](../docs/observability.md). */
export interface HttpObservation {
  /** Headers to add to the request (a trace context). */
  headers?: Record<string, string>;
  /** Ends the observation with the HTTP status or the error. */
  end(outcome: { status?: number; error?: unknown }): void;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** Query parameters; arrays become repeated keys, undefined values are left out. */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  headers: Record<string, string>;
  body?: string;
  /** Operation and agent URL for error messages. */
  context: ErrorContext;
  signal?: AbortSignal | undefined;
  /** The cap on the response body. @default 'maxBodyBytes' */
  bodyLimit?: 'maxBodyBytes' | 'maxCardBytes';
  /**
   * A 2xx body of at least `fromBytes` (announced, or once that much arrived) goes to the sink
   * `reader` makes, as it arrives, instead of being held: the sink bounds it (its own cap
   * replaces `bodyLimit`), and what its end returns is the response's `streamed`.
   */
  streamedBody?: { fromBytes: number; reader: () => OversizedEventSink };
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** What the `streamedBody` sink made of a body read as it arrived (`text` is then empty). */
  streamed?: unknown;
  /** The credential values used for this request, for scrubbing error text. */
  scope: ErrorScope;
}

export interface OpenStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array>;
  scope: ErrorScope;
  /** The caps the reader of `body` applies (SSE line and event bytes). */
  limits: A2ALimits;
  /** Reads the rest of the body as text, at most `maxBodyBytes` (for a non-SSE answer). */
  text(): Promise<string>;
  /** An event (or heartbeat) arrived: restart the idle timer. */
  touch(): void;
  /** Stop the idle timer while the consumer holds an event (its slowness is not the agent's silence). */
  pause(): void;
  /** Releases the connection (idempotent). */
  close(): void;
  /** Classifies an error thrown while reading the body. */
  classify(error: unknown): unknown;
}

const DEFAULT_USER_AGENT = 'a2a-temporal';

/** Credentials remembered per client for scrubbing (a rotating token adds one per rotation). */
const MAX_REMEMBERED_SECRETS = 32;

/** Why our own controller aborted a request. */
type AbortCause = 'caller' | 'timeout' | 'idle' | 'closed';

/**
 * The body as text, counted while it arrives: past `max` bytes (or when `Content-Length`
 * announces more) the request is aborted and `tooLarge()` is thrown; nothing more is buffered.
 */
async function readText(
  res: Dispatcher.ResponseData,
  max: number,
  guard: AbortGuard,
  tooLarge: () => A2AError,
): Promise<string> {
  const abort = (): A2AError => {
    res.body.on('error', () => {});
    guard.abortWith('closed');
    return tooLarge();
  };
  if (Number(headerValue(res.headers, 'content-length')) > max) throw abort();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) throw abort();
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * The body given to `sink` as it arrives, from the chunk that makes it `fromBytes` long (or at
 * once when `Content-Length` announces that much): held chunks go first. A smaller body is
 * returned as text, as {@link readText} does. The sink's failure aborts the request.
 */
async function readStreamed(
  res: Dispatcher.ResponseData,
  body: NonNullable<HttpRequest['streamedBody']>,
  guard: AbortGuard,
): Promise<{ text: string } | { streamed: unknown }> {
  let sink: OversizedEventSink | undefined =
    Number(headerValue(res.headers, 'content-length')) >= body.fromBytes ? body.reader() : undefined;
  const held: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of withLoopTurns(res.body as AsyncIterable<Uint8Array>)) {
      if (sink) {
        sink.push(chunk);
        continue;
      }
      held.push(chunk);
      total += chunk.byteLength;
      if (total < body.fromBytes) continue;
      sink = body.reader();
      for (const piece of held.splice(0)) sink.push(piece);
    }
    if (!sink) return { text: new TextDecoder().decode(Buffer.concat(held)) };
    return { streamed: sink.end() };
  } catch (error) {
    sink?.dispose();
    res.body.on('error', () => {});
    guard.abortWith('closed');
    throw error;
  }
}

class AbortReason extends Error {
  constructor(readonly why: AbortCause) {
    super(`a2a request ${why}`);
  }
}

/**
 * One reason per cause, made once: a reason is only compared (see {@link AbortGuard.why}), and
 * an Error made per request costs a stack capture, which the body's destroy then formats (with
 * source maps), on every stream the consumer stops reading after its last event.
 */
const ABORT_REASONS: Record<AbortCause, AbortReason> = {
  caller: new AbortReason('caller'),
  timeout: new AbortReason('timeout'),
  idle: new AbortReason('idle'),
  closed: new AbortReason('closed'),
};

export class HttpClient {
  readonly limits: A2ALimits;
  private readonly remembered = new Set<string>();
  /** The subset that are credentials this client sent (not URL query values that merely look like keys). */
  private readonly sent = new Set<string>();

  constructor(private readonly options: HttpClientOptions = {}) {
    this.limits = resolveLimits(options.limits);
  }

  /** The `User-Agent` of its requests. */
  get userAgent(): string {
    return this.options.userAgent ?? DEFAULT_USER_AGENT;
  }

  /** Every credential value this client has sent so far (the latest 32): what error messages are scrubbed of. */
  get secrets(): readonly string[] {
    return [...this.remembered];
  }

  /**
   * The credentials this client has sent (header and query values of its auth, the latest 32):
   * what every response is scrubbed of (see echoed-secrets.ts). Unlike {@link secrets} it leaves
   * out the longer query values of the agent's URL, which are often names, not keys.
   */
  get credentials(): readonly string[] {
    return [...this.sent];
  }

  /**
   * A request/response exchange whose body is read completely (at most its byte cap), within
   * `timeoutMs`. A 401 whose `WWW-Authenticate` says the token is invalid is sent once more when
   * the credentials can be renewed (an OAuth token revoked or expired early).
   */
  async unary(req: HttpRequest, timeoutMs?: number): Promise<HttpResponse> {
    const res = await this.unaryOnce(req, timeoutMs);
    return (await this.renewedAfter(res.status, res.headers)) ? this.unaryOnce(req, timeoutMs) : res;
  }

  /** Opens a streaming response: resolves once the headers are in (renewing an invalid token once, as {@link unary}). */
  async stream(req: HttpRequest, options: { connectTimeoutMs?: number; idleTimeoutMs?: number }): Promise<OpenStream> {
    const open = await this.streamOnce(req, options);
    if (!(await this.renewedAfter(open.status, open.headers))) return open;
    open.close();
    return this.streamOnce(req, options);
  }

  /** True when the agent refused an invalid token and the resolver has a fresh one. */
  private async renewedAfter(status: number, headers: HttpResponse['headers']): Promise<boolean> {
    const renew = this.options.auth?.renew;
    if (status !== 401 || !renew) return false;
    const challenge = headerValue(headers, 'www-authenticate') ?? '';
    return challenge.toLowerCase().includes('invalid_token') && (await renew());
  }

  private async unaryOnce(req: HttpRequest, timeoutMs?: number): Promise<HttpResponse> {
    const prepared = await this.prepare(req);
    const observed = prepared.observation;
    const limit = req.bodyLimit ?? 'maxBodyBytes';
    const tooLarge = () => new ResponseTooLargeError({ ...req.context, limit, max: this.limits[limit] });
    const guard = new AbortGuard(req.signal);
    guard.startTimer('timeout', timeoutMs);
    try {
      guard.throwIfCallerAborted(req.context);
      const res = await request(prepared.url, {
        method: req.method,
        headers: prepared.headers,
        body: req.body ?? null,
        signal: guard.signal,
        // Our timer bounds the whole call; without one, undici's 300 s limits still guard against hangs.
        ...(timeoutMs !== undefined ? { headersTimeout: 0, bodyTimeout: 0 } : {}),
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
      // A unary call is answered with one JSON body: an event stream (which could run forever, e.g.
      // a CancelTask answered with a subscription) is refused at once, its body never read.
      if (isEventStream(headerValue(res.headers, 'content-type'))) {
        res.body.on('error', () => {});
        guard.abortWith('closed');
        throw new InvalidResponseError(
          `${where(req.context, 'from')} answered with an event stream where one JSON response was expected, so it was not read; the agent does not follow the A2A wire format, so retrying will not help.`,
          { ...req.context, path: '' },
        );
      }
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const body =
        req.streamedBody && ok
          ? await readStreamed(res, req.streamedBody, guard)
          : { text: await readText(res, this.limits[limit], guard, tooLarge) };
      observed?.end({ status: res.statusCode });
      return {
        status: res.statusCode,
        headers: res.headers,
        text: 'text' in body ? body.text : '',
        ...('streamed' in body ? { streamed: body.streamed } : {}),
        scope: this.scope(req, prepared.secrets),
      };
    } catch (error) {
      const classified = guard.classify(error, this.scope(req, prepared.secrets), { timeoutMs });
      observed?.end({ error: classified });
      throw classified;
    } finally {
      guard.dispose();
    }
  }

  private async streamOnce(
    req: HttpRequest,
    options: { connectTimeoutMs?: number; idleTimeoutMs?: number },
  ): Promise<OpenStream> {
    const prepared = await this.prepare(req);
    const scope = this.scope(req, prepared.secrets);
    const guard = new AbortGuard(req.signal);
    guard.startTimer('timeout', options.connectTimeoutMs);
    let res: Dispatcher.ResponseData;
    try {
      guard.throwIfCallerAborted(req.context);
      res = await request(prepared.url, {
        method: req.method,
        headers: prepared.headers,
        body: req.body ?? null,
        signal: guard.signal,
        bodyTimeout: 0,
        ...(options.connectTimeoutMs !== undefined ? { headersTimeout: 0 } : {}),
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
    } catch (error) {
      guard.dispose();
      const classified = guard.classify(error, scope, { timeoutMs: options.connectTimeoutMs });
      prepared.observation?.end({ error: classified });
      throw classified;
    }
    prepared.observation?.end({ status: res.statusCode });
    guard.clearTimer();
    const idle = options.idleTimeoutMs;
    guard.startTimer('idle', idle);
    let closed = false;
    return {
      status: res.statusCode,
      headers: res.headers,
      // Not destroyed when the reader stops early (its last event read, the server yet to close):
      // close() releases the connection, without the AbortError a destroying iterator makes.
      body: { [Symbol.asyncIterator]: () => res.body.iterator({ destroyOnReturn: false }) },
      scope,
      limits: this.limits,
      text: () =>
        readText(
          res,
          this.limits.maxBodyBytes,
          guard,
          () => new ResponseTooLargeError({ ...req.context, limit: 'maxBodyBytes', max: this.limits.maxBodyBytes }),
        ),
      touch: () => {
        if (!closed) guard.startTimer('idle', idle);
      },
      pause: () => guard.clearTimer(),
      close: () => {
        if (closed) return;
        closed = true;
        // Swallow the abort error of a body nobody reads any more, then release the socket.
        res.body.on('error', () => {});
        guard.abortWith('closed');
        guard.dispose();
      },
      classify: (error: unknown) => guard.classify(error, scope, { idleTimeoutMs: idle, midStream: true }),
    };
  }

  private scope(req: HttpRequest, secrets: readonly string[]): ErrorScope {
    return this.errorScope(req.context, secrets);
  }

  /** The context of an error of this client's: where, the credentials to scrub, the scheme the card asks for. */
  errorScope(context: ErrorContext, secrets: readonly string[] = this.secrets): ErrorScope {
    const authScheme = this.options.authScheme;
    return { ...context, secrets, ...(authScheme !== undefined ? { authScheme } : {}) };
  }

  /**
   * What one request to `url` may carry: the outbound policy decides first (a refused URL throws
   * and is never sent), then the credentials are resolved where it allows them, and remembered
   * for scrubbing. Used by every request of this client, and by the gRPC binding (which does not
   * send through undici).
   * @throws OutboundRefusedError
   */
  async authorize(url: URL, context: ErrorContext): Promise<AuthMaterial> {
    const allowed = this.options.policy ? await this.options.policy.check(url, context) : { credentials: true };
    const auth = allowed.credentials ? await resolveAuth(this.options.auth) : {};
    for (const credential of secretsOf(auth)) this.remember(credential, this.sent);
    for (const secret of [...secretsOf(auth), ...urlSecrets(url)]) this.remember(secret);
    return auth;
  }

  /** Tells the observer (tracing) about a request as it leaves; see {@link HttpObserver}. */
  observe(info: Parameters<HttpObserver['request']>[0]): HttpObservation | undefined {
    return this.options.observer?.request(info);
  }

  private async prepare(req: HttpRequest): Promise<{
    url: string;
    headers: Record<string, string>;
    secrets: readonly string[];
    observation: HttpObservation | undefined;
  }> {
    const url = new URL(req.url);
    const auth = await this.authorize(url, req.context);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else url.searchParams.set(key, String(value));
    }
    for (const [key, value] of Object.entries(auth.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    const observation = this.observe({
      method: req.method,
      url: displayUrl(req.url),
      operation: req.context.operation,
    });
    for (const [key, value] of Object.entries(observation?.headers ?? {})) headers[key.toLowerCase()] = value;
    for (const [key, value] of Object.entries(req.headers)) headers[key.toLowerCase()] = value;
    for (const [key, value] of Object.entries(auth.headers ?? {})) headers[key.toLowerCase()] = value;
    return { url: url.toString(), headers, secrets: this.secrets, observation };
  }

  private remember(secret: string, set = this.remembered): void {
    set.delete(secret);
    set.add(secret);
    if (set.size > MAX_REMEMBERED_SECRETS) set.delete(set.values().next().value!);
  }
}

/**
 * One AbortController per request, fed by the caller's signal and our timers, that remembers
 * why it fired so the resulting error can say so.
 */
class AbortGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.abortWith('caller');

  constructor(private readonly callerSignal: AbortSignal | undefined) {
    if (callerSignal?.aborted) this.abortWith('caller');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get why(): AbortCause | undefined {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof AbortReason ? reason.why : undefined;
  }

  throwIfCallerAborted(context: ErrorContext): void {
    if (this.why === 'caller') throw new AbortedError({ ...context, cause: this.callerSignal?.reason });
  }

  abortWith(why: AbortCause): void {
    if (!this.controller.signal.aborted) this.controller.abort(ABORT_REASONS[why]);
  }

  startTimer(why: 'timeout' | 'idle', ms: number | undefined): void {
    this.clearTimer();
    if (ms === undefined || ms <= 0 || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => this.abortWith(why), ms);
  }

  clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.clearTimer();
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  classify(
    error: unknown,
    scope: ErrorScope,
    details: { timeoutMs?: number | undefined; idleTimeoutMs?: number | undefined; midStream?: boolean },
  ): unknown {
    const ctx: ErrorContext = {};
    if (scope.operation !== undefined) ctx.operation = scope.operation;
    if (scope.agentUrl !== undefined) ctx.agentUrl = scope.agentUrl;
    switch (this.why) {
      case 'caller':
        return new AbortedError({ ...ctx, cause: this.callerSignal?.reason });
      case 'timeout':
        return new TransportTimeoutError({
          ...ctx,
          ...(details.timeoutMs !== undefined ? { timeoutMs: details.timeoutMs } : {}),
        });
      case 'idle':
        return new StreamIdleTimeoutError({ ...ctx, idleTimeoutMs: details.idleTimeoutMs ?? 0 });
      default: {
        const mapped: A2AError | undefined = errorFromNetwork(
          error,
          scope,
          details.midStream ? { midStream: true } : {},
        );
        return mapped ?? error;
      }
    }
  }
}
