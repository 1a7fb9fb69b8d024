/**
 * Every way an A2A call can fail, as classes with a stable `code` and a `retryable` verdict.
 *
 * The client never retries by itself: the caller's retry policy (Temporal's, in this project)
 * decides, and these classes tell it whether retrying can help. Timeouts, lost connections,
 * HTTP 5xx, 429 (with `retryAfterMs`) and a silent stream are retryable; contract errors
 * (unknown task, unsupported operation, invalid body, 4xx) are not.
 *
 * `instanceof` works across realms and duplicated module copies: each class is branded with a
 * `Symbol.for` key (as in undici and the Temporal SDK). Messages are one sentence that says
 * what happened and what to do, and never contain credentials.
 */

/** Every branded class answers `instanceof` by its brand, not by prototype identity. */
function brand<T extends abstract new (...args: never[]) => Error>(ctor: T, name: string): void {
  const key = Symbol.for(`a2a-temporal.${name}`);
  Object.defineProperty(ctor.prototype, key, { value: true, enumerable: false });
  Object.defineProperty(ctor, Symbol.hasInstance, {
    value: (value: unknown) =>
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === true,
  });
  Object.defineProperty(ctor.prototype, 'name', { value: name, enumerable: false, writable: true, configurable: true });
}

/** Where an error happened: the A2A operation and the agent interface URL (never with credentials). */
export interface ErrorContext {
  /** The A2A operation, e.g. `SendMessage`, `GetTask`, `GetAgentCard`. */
  operation?: string;
  /** The agent's interface (or card) URL, without query string or user info. */
  agentUrl?: string;
}

export interface A2AErrorInit extends ErrorContext {
  code: string;
  retryable: boolean;
  retryAfterMs?: number;
  cause?: unknown;
}

/** Base class of every error this client throws. */
export class A2AError extends Error {
  /** Stable identifier, suitable as a Temporal `ApplicationFailure` type. */
  readonly code: string;
  /** Whether sending the same request again can succeed. */
  readonly retryable: boolean;
  /** How long the agent asked us to wait before retrying (from `Retry-After`). */
  readonly retryAfterMs?: number;
  readonly operation?: string;
  readonly agentUrl?: string;

  constructor(message: string, init: A2AErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.retryable = init.retryable;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.operation !== undefined) this.operation = init.operation;
    if (init.agentUrl !== undefined) this.agentUrl = init.agentUrl;
  }
}
brand(A2AError, 'A2AError');

/** `"SendMessage to http://…"`, or whatever part of that is known. */
export function where(ctx: ErrorContext, preposition = 'to'): string {
  if (ctx.operation && ctx.agentUrl) return `${ctx.operation} ${preposition} ${ctx.agentUrl}`;
  if (ctx.operation) return ctx.operation;
  if (ctx.agentUrl) return `The call ${preposition} ${ctx.agentUrl}`;
  return 'The A2A call';
}

/** Shortens a value for a message: JSON, at most ~80 characters. */
export function quote(value: unknown, max = 80): string {
  let text: string;
  if (value === undefined) return 'nothing';
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ---------------------------------------------------------------------------------------------
// Protocol errors: what the agent says went wrong (JSON-RPC -32001…-32009, or HTTP+JSON
// google.rpc.Status told apart by ErrorInfo.reason).

interface ProtocolErrorSpec {
  /** google.rpc.ErrorInfo `reason` (the error name in UPPER_SNAKE_CASE). */
  reason: string;
  /** JSON-RPC error code. */
  rpcCode: number;
  /** What happened, as a clause. */
  summary: string;
  /** What to do, as a clause. */
  advice: string;
  retryable: boolean;
}

export interface ProtocolErrorInit extends ErrorContext {
  /** The agent's own message, quoted in ours. */
  agentMessage?: string;
  rpcCode?: number;
  httpStatus?: number;
  /** `metadata` of the ErrorInfo detail, when the agent sent one. */
  errorInfoMetadata?: Record<string, string>;
  /** Replaces the generated message (for errors raised by the client itself). */
  message?: string;
  cause?: unknown;
}

/** An error reported by the agent in A2A terms. `code` equals the ErrorInfo `reason` unless noted. */
export abstract class A2AProtocolError extends A2AError {
  /** The A2A ErrorInfo reason, e.g. `TASK_NOT_FOUND`. */
  readonly reason: string;
  readonly rpcCode?: number;
  readonly httpStatus?: number;
  /** What the agent said, verbatim (may be empty). */
  readonly agentMessage: string;
  readonly errorInfoMetadata?: Record<string, string>;

  protected static readonly spec: ProtocolErrorSpec;

  constructor(init: ProtocolErrorInit = {}) {
    const spec = (new.target as unknown as { spec: ProtocolErrorSpec }).spec;
    const agentMessage = init.agentMessage ?? '';
    const said = agentMessage ? ` ("${truncate(agentMessage, 160)}")` : '';
    const message = init.message ?? `${where(init)} failed: ${spec.summary}${said}; ${spec.advice}.`;
    super(message, { ...init, code: codeFor(spec), retryable: spec.retryable });
    this.reason = spec.reason;
    this.agentMessage = agentMessage;
    if (init.rpcCode !== undefined) this.rpcCode = init.rpcCode;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.errorInfoMetadata !== undefined) this.errorInfoMetadata = init.errorInfoMetadata;
  }
}
brand(A2AProtocolError, 'A2AProtocolError');

function codeFor(spec: ProtocolErrorSpec): string {
  // Our own InvalidResponseError owns 'INVALID_AGENT_RESPONSE' (a body we could not accept);
  // the agent *reporting* -32006 gets a code of its own so the two are never confused.
  return spec.reason === 'INVALID_AGENT_RESPONSE' ? 'AGENT_REPORTED_INVALID_RESPONSE' : spec.reason;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** -32001 / 404 `TASK_NOT_FOUND`: the task id is unknown to the agent (or hidden from this caller). */
export class TaskNotFoundError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'TASK_NOT_FOUND',
    rpcCode: -32001,
    summary: 'the agent does not know this task',
    advice: 'check the task id, and start a new task if the agent has lost it',
    retryable: false,
  };
}
brand(TaskNotFoundError, 'TaskNotFoundError');

/** -32002 `TASK_NOT_CANCELABLE`: the task is already terminal (or cannot be stopped). */
export class TaskNotCancelableError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'TASK_NOT_CANCELABLE',
    rpcCode: -32002,
    summary: 'the task can no longer be canceled',
    advice: 'read its final state with GetTask',
    retryable: false,
  };
}
brand(TaskNotCancelableError, 'TaskNotCancelableError');

/** -32003 `PUSH_NOTIFICATION_NOT_SUPPORTED`: the card does not declare `pushNotifications`. */
export class PushNotificationNotSupportedError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    rpcCode: -32003,
    summary: 'the agent does not support push notifications',
    advice: 'track the task by streaming or by polling GetTask instead',
    retryable: false,
  };
}
brand(PushNotificationNotSupportedError, 'PushNotificationNotSupportedError');

/**
 * -32004 `UNSUPPORTED_OPERATION`: e.g. a message to or a subscription on a terminal task,
 * streaming without the capability, or ListTasks on an A2A 0.3 agent.
 */
export class UnsupportedOperationError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'UNSUPPORTED_OPERATION',
    rpcCode: -32004,
    summary: 'the agent does not support this operation here',
    advice: 'a finished task takes no messages or subscriptions, so read it with GetTask or start a new task',
    retryable: false,
  };
}
brand(UnsupportedOperationError, 'UnsupportedOperationError');

/** -32005 `CONTENT_TYPE_NOT_SUPPORTED`: a media type (or the HTTP Content-Type) the agent refuses. */
export class ContentTypeNotSupportedError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
    rpcCode: -32005,
    summary: 'the agent does not accept this content type',
    advice: "send parts in one of the agent card's input modes",
    retryable: false,
  };
}
brand(ContentTypeNotSupportedError, 'ContentTypeNotSupportedError');

/**
 * -32006 `INVALID_AGENT_RESPONSE`, reported *by the agent* (typically about an agent it
 * depends on). Its `code` is `AGENT_REPORTED_INVALID_RESPONSE`; a body that *we* reject is an
 * {@link InvalidResponseError} with code `INVALID_AGENT_RESPONSE`.
 */
export class InvalidAgentResponseError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'INVALID_AGENT_RESPONSE',
    rpcCode: -32006,
    summary: 'the agent reports that it produced an invalid response',
    advice: "report it to the agent's maintainers",
    retryable: false,
  };
}
brand(InvalidAgentResponseError, 'InvalidAgentResponseError');

/** -32007 `EXTENDED_AGENT_CARD_NOT_CONFIGURED` (0.3: AuthenticatedExtendedCardNotConfigured). */
export class ExtendedAgentCardNotConfiguredError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    rpcCode: -32007,
    summary: 'the agent has no extended agent card',
    advice: 'use the public agent card',
    retryable: false,
  };
}
brand(ExtendedAgentCardNotConfiguredError, 'ExtendedAgentCardNotConfiguredError');

/** -32008 `EXTENSION_SUPPORT_REQUIRED`: the card marks an extension `required` that we did not request. */
export class ExtensionSupportRequiredError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'EXTENSION_SUPPORT_REQUIRED',
    rpcCode: -32008,
    summary: 'the agent requires a protocol extension that the client did not request',
    advice: 'use an agent that does not require it, or add support for the extension named in its card',
    retryable: false,
  };
}
brand(ExtensionSupportRequiredError, 'ExtensionSupportRequiredError');

/** -32009 `VERSION_NOT_SUPPORTED`: the `A2A-Version` we sent is not one the interface serves. */
export class VersionNotSupportedError extends A2AProtocolError {
  protected static override readonly spec: ProtocolErrorSpec = {
    reason: 'VERSION_NOT_SUPPORTED',
    rpcCode: -32009,
    summary: 'the agent does not serve this A2A protocol version on this interface',
    advice: 'fetch the agent card again and pick an interface whose protocolVersion the agent really serves',
    retryable: false,
  };
}
brand(VersionNotSupportedError, 'VersionNotSupportedError');

/** The A2A-specific errors, by ErrorInfo reason and by JSON-RPC code (the error table of §7). */
export const PROTOCOL_ERROR_CLASSES = [
  TaskNotFoundError,
  TaskNotCancelableError,
  PushNotificationNotSupportedError,
  UnsupportedOperationError,
  ContentTypeNotSupportedError,
  InvalidAgentResponseError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  VersionNotSupportedError,
] as const;

export type ProtocolErrorClass = (typeof PROTOCOL_ERROR_CLASSES)[number];

function specOf(ctor: ProtocolErrorClass): ProtocolErrorSpec {
  return (ctor as unknown as { spec: ProtocolErrorSpec }).spec;
}

export const PROTOCOL_ERRORS_BY_REASON: ReadonlyMap<string, ProtocolErrorClass> = new Map(
  PROTOCOL_ERROR_CLASSES.map((c) => [specOf(c).reason, c]),
);
export const PROTOCOL_ERRORS_BY_RPC_CODE: ReadonlyMap<number, ProtocolErrorClass> = new Map(
  PROTOCOL_ERROR_CLASSES.map((c) => [specOf(c).rpcCode, c]),
);

// ---------------------------------------------------------------------------------------------
// JSON-RPC standard errors, and errors the agent reports in terms we do not know.

const JSON_RPC_STANDARD: Record<number, { code: string; summary: string; advice: string; retryable: boolean }> = {
  [-32700]: {
    code: 'PARSE_ERROR',
    summary: 'the agent could not parse the request as JSON',
    advice: 'check for a proxy that alters request bodies, and report it if not',
    retryable: false,
  },
  [-32600]: {
    code: 'INVALID_REQUEST',
    summary: 'the agent rejected the request',
    advice: 'check that this interface really speaks the binding and version named in the agent card',
    retryable: false,
  },
  [-32601]: {
    code: 'METHOD_NOT_FOUND',
    summary: 'the agent does not know this method',
    advice:
      'check the protocolVersion of the interface in the agent card (1.0 methods look like SendMessage, 0.3 ones like message/send)',
    retryable: false,
  },
  [-32602]: {
    code: 'INVALID_PARAMS',
    summary: 'the agent rejected the request parameters',
    advice: "fix the request as the agent's message says",
    retryable: false,
  },
  [-32603]: {
    code: 'INTERNAL_ERROR',
    summary: 'the agent failed internally',
    advice: "retry later, and report it to the agent's maintainers if it persists",
    retryable: true,
  },
};

/**
 * A JSON-RPC standard error (-32700 parse, -32600 invalid request, -32601 method not found,
 * -32602 invalid params, -32603 internal). Also used for an HTTP+JSON error whose reason is
 * `INVALID_PARAMS` (the official SDK's "request malformed"). Only -32603 is retryable.
 */
export class JsonRpcProtocolError extends A2AError {
  readonly rpcCode: number;
  readonly httpStatus?: number;
  readonly agentMessage: string;

  constructor(rpcCode: number, init: ErrorContext & { agentMessage?: string; httpStatus?: number; cause?: unknown }) {
    const spec = JSON_RPC_STANDARD[rpcCode] ?? JSON_RPC_STANDARD[-32600]!;
    const agentMessage = init.agentMessage ?? '';
    const said = agentMessage ? ` ("${truncate(agentMessage, 160)}")` : '';
    super(`${where(init)} failed: ${spec.summary}${said}; ${spec.advice}.`, {
      ...init,
      code: spec.code,
      retryable: spec.retryable,
    });
    this.rpcCode = rpcCode;
    this.agentMessage = agentMessage;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
  }

  static isStandardCode(code: number): boolean {
    return code in JSON_RPC_STANDARD;
  }
}
brand(JsonRpcProtocolError, 'JsonRpcProtocolError');

/**
 * An error the agent reported with a code or reason this client does not know (e.g. a custom
 * JSON-RPC code, or a google.rpc.Status without ErrorInfo). Retryable only for HTTP 5xx.
 */
export class UnknownAgentError extends A2AError {
  readonly rpcCode?: number;
  readonly reason?: string;
  readonly httpStatus?: number;
  readonly agentMessage: string;

  constructor(
    init: ErrorContext & {
      rpcCode?: number;
      reason?: string;
      httpStatus?: number;
      agentMessage?: string;
      cause?: unknown;
    },
  ) {
    const agentMessage = init.agentMessage ?? '';
    const what = [
      init.rpcCode !== undefined ? `code ${init.rpcCode}` : undefined,
      init.reason ? `reason ${init.reason}` : undefined,
      init.httpStatus !== undefined ? `HTTP ${init.httpStatus}` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    const retryable = init.httpStatus !== undefined && init.httpStatus >= 500;
    const said = agentMessage ? ` ("${truncate(agentMessage, 160)}")` : '';
    super(
      `${where(init)} failed with an error the client does not know (${what || 'no code'})${said}; ${
        retryable ? 'retry later' : "read the agent's message and fix the request or the agent"
      }.`,
      { ...init, code: 'AGENT_ERROR', retryable },
    );
    if (init.rpcCode !== undefined) this.rpcCode = init.rpcCode;
    if (init.reason !== undefined) this.reason = init.reason;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    this.agentMessage = agentMessage;
  }
}
brand(UnknownAgentError, 'UnknownAgentError');

/** HTTP 401 / `UNAUTHENTICATED`: the agent did not accept our credentials (or we sent none). */
export class UnauthenticatedError extends A2AError {
  readonly httpStatus?: number;
  constructor(init: ErrorContext & { httpStatus?: number; cause?: unknown }) {
    super(
      `${where(init)} was refused because the agent did not accept the client's credentials; check the credentials configured for this agent.`,
      { ...init, code: 'UNAUTHENTICATED', retryable: false },
    );
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
  }
}
brand(UnauthenticatedError, 'UnauthenticatedError');

/** HTTP 403 / `PERMISSION_DENIED`: authenticated, but not allowed to do this. */
export class PermissionDeniedError extends A2AError {
  readonly httpStatus?: number;
  constructor(init: ErrorContext & { httpStatus?: number; cause?: unknown }) {
    super(
      `${where(init)} was refused because the client's identity may not do this; ask the agent's operators for access.`,
      { ...init, code: 'PERMISSION_DENIED', retryable: false },
    );
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
  }
}
brand(PermissionDeniedError, 'PermissionDeniedError');

// ---------------------------------------------------------------------------------------------
// Transport errors.

/** The whole call (or, for a stream, the wait for response headers) took longer than allowed. */
export class TransportTimeoutError extends A2AError {
  readonly timeoutMs?: number;
  constructor(init: ErrorContext & { timeoutMs?: number; cause?: unknown }) {
    const after = init.timeoutMs !== undefined ? ` after ${init.timeoutMs} ms` : '';
    super(
      `${where(init)} timed out${after}; retry, and before resending a message look for the task it may already have created.`,
      { ...init, code: 'TIMEOUT', retryable: true },
    );
    if (init.timeoutMs !== undefined) this.timeoutMs = init.timeoutMs;
  }
}
brand(TransportTimeoutError, 'TransportTimeoutError');

/** The agent could not be reached or the connection broke: refused, reset, DNS, socket closed. */
export class ConnectionError extends A2AError {
  /** The system or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly systemCode?: string;
  constructor(init: ErrorContext & { systemCode?: string; midStream?: boolean; cause?: unknown }) {
    const why = init.systemCode ? ` (${init.systemCode})` : '';
    const message = init.midStream
      ? `${where(init, 'from')} stream broke off because the connection was lost${why}; resubscribe to the task or read it with GetTask.`
      : `${where(init)} could not complete because the connection failed${why}; check that the agent is running and reachable, then retry.`;
    super(message, { ...init, code: 'CONNECTION_FAILED', retryable: true });
    if (init.systemCode !== undefined) this.systemCode = init.systemCode;
  }
}
brand(ConnectionError, 'ConnectionError');

/** A non-2xx HTTP answer that carried no A2A error. 5xx (and 408) are retryable, other 4xx not. */
export class HttpStatusError extends A2AError {
  readonly status: number;
  constructor(
    status: number,
    init: ErrorContext & {
      bodySnippet?: string;
      cause?: unknown;
      code?: string;
      retryAfterMs?: number;
      message?: string;
    },
  ) {
    const retryable = status >= 500 || status === 408 || status === 429;
    const body = init.bodySnippet ? ` (${quote(init.bodySnippet)})` : '';
    const advice =
      status >= 500
        ? 'the agent or a proxy in front of it is failing, so retry later'
        : status === 404 || status === 405
          ? 'check the interface URL and binding in the agent card'
          : 'check the request and the interface in the agent card';
    super(init.message ?? `${where(init)} failed with HTTP ${status}${body}; ${advice}.`, {
      ...init,
      code: init.code ?? 'HTTP_STATUS',
      retryable,
    });
    this.status = status;
  }
}
brand(HttpStatusError, 'HttpStatusError');

/** HTTP 429: retryable, after `retryAfterMs` when the agent sent `Retry-After`. */
export class RateLimitedError extends HttpStatusError {
  constructor(init: ErrorContext & { retryAfterMs?: number; cause?: unknown }) {
    const wait = init.retryAfterMs !== undefined ? `after ${Math.ceil(init.retryAfterMs / 1000)} s` : 'later';
    super(429, {
      ...init,
      code: 'RATE_LIMITED',
      message: `${where(init)} was rate-limited by the agent (HTTP 429); retry ${wait}.`,
    });
  }
}
brand(RateLimitedError, 'RateLimitedError');

/** A stream sent no event for `idleTimeoutMs`. Resubscribe (the first event is the task snapshot). */
export class StreamIdleTimeoutError extends A2AError {
  readonly idleTimeoutMs: number;
  constructor(init: ErrorContext & { idleTimeoutMs: number; cause?: unknown }) {
    super(
      `${where(init, 'from')} stream sent no event for ${init.idleTimeoutMs} ms; resubscribe to the task or read it with GetTask (a task waiting for input stays silent).`,
      { ...init, code: 'STREAM_IDLE_TIMEOUT', retryable: true },
    );
    this.idleTimeoutMs = init.idleTimeoutMs;
  }
}
brand(StreamIdleTimeoutError, 'StreamIdleTimeoutError');

/** The caller's `AbortSignal` fired; the request was aborted and its socket released. */
export class AbortedError extends A2AError {
  constructor(init: ErrorContext & { cause?: unknown }) {
    super(`${where(init)} was aborted by the caller; nothing to do unless the abort was unintended.`, {
      ...init,
      code: 'ABORTED',
      retryable: false,
    });
  }
}
brand(AbortedError, 'AbortedError');

// ---------------------------------------------------------------------------------------------
// Client-side verdicts.

/**
 * The agent answered with a body we cannot accept: not JSON, or JSON that fails validation.
 * Not retryable: the same agent will most likely answer the same way again.
 */
export class InvalidResponseError extends A2AError {
  /** The field path of the first problem, e.g. `status.state` (empty for the whole body). */
  readonly path?: string;
  constructor(message: string, init: ErrorContext & { path?: string; cause?: unknown }) {
    super(message, { ...init, code: 'INVALID_AGENT_RESPONSE', retryable: false });
    if (init.path !== undefined) this.path = init.path;
  }
}
brand(InvalidResponseError, 'InvalidResponseError');

/** The agent card offers no interface this client speaks (HTTP+JSON or JSONRPC, 1.0 or 0.3). */
export class NoUsableInterfaceError extends A2AError {
  /** What the card offers, as `binding version at url`. */
  readonly offered: string[];
  constructor(offered: string[], init: ErrorContext & { wanted?: string } = {}) {
    const offers = offered.length > 0 ? `offers ${offered.join(', ')}` : 'offers no interfaces';
    const wanted = init.wanted ?? 'HTTP+JSON or JSONRPC, 1.0 or 0.3';
    super(
      `The agent card${init.agentUrl ? ` at ${init.agentUrl}` : ''} ${offers}; we speak ${wanted}, so configure an agent interface we support.`,
      { ...init, code: 'NO_USABLE_INTERFACE', retryable: false },
    );
    this.offered = offered;
  }
}
brand(NoUsableInterfaceError, 'NoUsableInterfaceError');

/**
 * An artifact chunk would land beyond the end of what we have: chunks were missed. The caller
 * re-reads the task (its snapshot holds every part stored so far) and continues from there.
 */
export class ArtifactGapError extends A2AError {
  readonly artifactId: string;
  readonly position: number;
  readonly have: number;
  constructor(init: { artifactId: string; position: number; have: number }) {
    super(
      `Artifact "${init.artifactId}" received a chunk at part ${init.position} but only ${init.have} ${
        init.have === 1 ? 'part is' : 'parts are'
      } known; re-read the task with GetTask and continue from its artifacts.`,
      { code: 'ARTIFACT_GAP', retryable: false },
    );
    this.artifactId = init.artifactId;
    this.position = init.position;
    this.have = init.have;
  }
}
brand(ArtifactGapError, 'ArtifactGapError');

/** True for any error thrown by this client. */
export function isA2AError(value: unknown): value is A2AError {
  return value instanceof A2AError;
}
