/**
 * Every way an A2A call can fail, as classes with a stable `code` and a `retryable` verdict.
 *
 * Nothing retries by itself: the caller's retry policy (Temporal's, in this project) decides,
 * and `retryable` says whether retrying can help. Timeouts, lost connections, HTTP 5xx, 429
 * (with `retryAfterMs`) and a silent stream are retryable; contract errors (unknown task,
 * invalid body, 4xx, a response over a cap) are not. The nine A2A protocol errors are one table
 * and a factory, as in the official SDK's `errors/base.ts`. Messages are one sentence (what
 * happened, what to do), at most {@link MAX_ERROR_MESSAGE_LENGTH} characters, without credentials.
 */
import { MAX_ERROR_MESSAGE_LENGTH, clip, keep, quote, where } from './error-text.js';
import { LIMIT_ENV, formatBytes, type LimitName } from './limits.js';

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

const brandKey = (name: string): symbol => Symbol.for(`a2a-temporal.${name}`);

/**
 * Base class of every error this client throws. It brands each subclass (and its ancestors)
 * with a `Symbol.for` key of its name when the first instance is built, and answers
 * `instanceof` by that brand, so it holds across realms and duplicated module copies.
 * See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own).
 */
export class A2AError extends Error {
  /** Stable identifier, suitable as a Temporal `ApplicationFailure` type. */
  declare readonly code: string;
  /** Whether sending the same request again can succeed. */
  declare readonly retryable: boolean;
  /** How long the agent asked us to wait before retrying (`Retry-After`, at most 5 minutes). */
  declare readonly retryAfterMs?: number;
  /** The A2A operation that failed, e.g. `SendMessage`. */
  declare readonly operation?: string;
  /** The agent interface's URL (never with credentials). */
  declare readonly agentUrl?: string;

  constructor(message: string, init: A2AErrorInit) {
    super(clip(message, MAX_ERROR_MESSAGE_LENGTH), init.cause === undefined ? undefined : { cause: init.cause });
    // Brand the class and its ancestors, once each, on their prototypes.
    type Ctor = { prototype: object; name: string };
    for (let c = new.target as Ctor; c !== Error; c = Object.getPrototypeOf(c) as Ctor) {
      if (Object.hasOwn(c.prototype, brandKey(c.name))) break;
      Object.defineProperty(c.prototype, brandKey(c.name), { value: true });
      Object.defineProperty(c.prototype, 'name', { value: c.name, writable: true, configurable: true });
    }
    const { code, retryable, retryAfterMs, operation, agentUrl } = init;
    keep(this, { code, retryable, retryAfterMs, operation, agentUrl });
  }

  /** Recognises an error of this class even when it comes from another copy of the module. */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brandKey(this.name)] === true
    );
  }
}

const said = (agentMessage = ''): string => (agentMessage ? ` ("${clip(agentMessage, 160)}")` : '');

/** What the agent said about an error: its words (scrubbed and bounded by the caller) and the HTTP status. */
type AgentSaid = ErrorContext & { agentMessage?: string; httpStatus?: number; cause?: unknown };

/** What the card asks for, for a refusal's message: " (the card asks for …)". */
const asks = (authScheme?: string): string => (authScheme ? ` (the card asks for ${clip(authScheme, 200)})` : '');

// ---------------------------------------------------------------------------------------------
// Protocol errors (§7): JSON-RPC -32001…-32009, or google.rpc.Status told apart by ErrorInfo.reason.

// prettier-ignore
const PROTOCOL_ERRORS = {
  TaskNotFoundError:                   { reason: 'TASK_NOT_FOUND',                     rpcCode: -32001, summary: 'the agent does not know this task', advice: 'check the task id, and start a new task if the agent has lost it' },
  TaskNotCancelableError:              { reason: 'TASK_NOT_CANCELABLE',                rpcCode: -32002, summary: 'the task can no longer be canceled', advice: 'read its final state with GetTask' },
  PushNotificationNotSupportedError:   { reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',    rpcCode: -32003, summary: 'the agent does not support push notifications', advice: 'track the task by streaming or by polling GetTask instead' },
  UnsupportedOperationError:           { reason: 'UNSUPPORTED_OPERATION',              rpcCode: -32004, summary: 'the agent does not support this operation here', advice: 'a finished task takes no messages or subscriptions, so read it with GetTask or start a new task' },
  ContentTypeNotSupportedError:        { reason: 'CONTENT_TYPE_NOT_SUPPORTED',         rpcCode: -32005, summary: 'the agent does not accept this content type', advice: "send parts in one of the agent card's input modes" },
  InvalidAgentResponseError:           { reason: 'INVALID_AGENT_RESPONSE',             rpcCode: -32006, summary: 'the agent reports that it produced an invalid response', advice: "report it to the agent's maintainers" },
  ExtendedAgentCardNotConfiguredError: { reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', rpcCode: -32007, summary: 'the agent has no extended agent card', advice: 'use the public agent card' },
  ExtensionSupportRequiredError:       { reason: 'EXTENSION_SUPPORT_REQUIRED',         rpcCode: -32008, summary: 'the agent requires a protocol extension that the client did not request', advice: 'use an agent that does not require it, or add support for the extension named in its card' },
  VersionNotSupportedError:            { reason: 'VERSION_NOT_SUPPORTED',              rpcCode: -32009, summary: 'the agent does not serve this A2A protocol version on this interface', advice: 'fetch the agent card again and pick an interface whose protocolVersion the agent really serves' },
} as const;

type ProtocolErrorSpec = (typeof PROTOCOL_ERRORS)[keyof typeof PROTOCOL_ERRORS];

export interface ProtocolErrorInit extends AgentSaid {
  rpcCode?: number;
  /** `metadata` of the ErrorInfo detail, when the agent sent one. */
  errorInfoMetadata?: Record<string, string>;
  /** Replaces the generated message (for errors raised by the client itself). */
  message?: string;
}

/** An error reported by the agent in A2A terms; never retryable. `code` is the ErrorInfo `reason`, except for -32006. */
export abstract class A2AProtocolError extends A2AError {
  /** The A2A ErrorInfo reason, e.g. `TASK_NOT_FOUND`. */
  declare readonly reason: string;
  declare readonly rpcCode?: number;
  declare readonly httpStatus?: number;
  /** What the agent said (scrubbed, at most 1,000 characters; may be empty). */
  declare readonly agentMessage: string;
  declare readonly errorInfoMetadata?: Record<string, string>;

  protected constructor(spec: ProtocolErrorSpec, init: ProtocolErrorInit) {
    const { agentMessage = '', rpcCode, httpStatus, errorInfoMetadata } = init;
    // Our own InvalidResponseError owns 'INVALID_AGENT_RESPONSE' (a body we could not accept);
    // the agent *reporting* -32006 gets a code of its own so the two are never confused.
    const code = spec.reason === 'INVALID_AGENT_RESPONSE' ? 'AGENT_REPORTED_INVALID_RESPONSE' : spec.reason;
    const message = init.message ?? `${where(init)} failed: ${spec.summary}${said(agentMessage)}; ${spec.advice}.`;
    super(message, { ...init, code, retryable: false });
    keep(this, { reason: spec.reason, agentMessage, rpcCode, httpStatus, errorInfoMetadata });
  }
}

/** A generated protocol error class, carrying its table row's `reason` and `rpcCode`. */
export interface ProtocolErrorClass<R extends string = string> {
  new (init?: ProtocolErrorInit): A2AProtocolError & { readonly reason: R };
  readonly reason: R;
  readonly rpcCode: number;
}

function protocolError<N extends keyof typeof PROTOCOL_ERRORS>(
  name: N,
): ProtocolErrorClass<(typeof PROTOCOL_ERRORS)[N]['reason']> {
  const spec = PROTOCOL_ERRORS[name];
  const generated = {
    [name]: class extends A2AProtocolError {
      static readonly reason = spec.reason;
      static readonly rpcCode = spec.rpcCode;
      constructor(init: ProtocolErrorInit = {}) {
        super(spec, init);
      }
    },
  }[name]!;
  return generated as unknown as ProtocolErrorClass<(typeof PROTOCOL_ERRORS)[N]['reason']>;
}

/** -32001 / 404 `TASK_NOT_FOUND`: the task id is unknown to the agent (or hidden from this caller). */
export const TaskNotFoundError = protocolError('TaskNotFoundError');
export type TaskNotFoundError = InstanceType<typeof TaskNotFoundError>;
/** -32002 `TASK_NOT_CANCELABLE`: the task is already terminal (or cannot be stopped). */
export const TaskNotCancelableError = protocolError('TaskNotCancelableError');
export type TaskNotCancelableError = InstanceType<typeof TaskNotCancelableError>;
/** -32003 `PUSH_NOTIFICATION_NOT_SUPPORTED`: the card does not declare `pushNotifications`. */
export const PushNotificationNotSupportedError = protocolError('PushNotificationNotSupportedError');
export type PushNotificationNotSupportedError = InstanceType<typeof PushNotificationNotSupportedError>;
/** -32004 `UNSUPPORTED_OPERATION`: e.g. a message to a terminal task, or ListTasks on A2A 0.3. */
export const UnsupportedOperationError = protocolError('UnsupportedOperationError');
export type UnsupportedOperationError = InstanceType<typeof UnsupportedOperationError>;
/** -32005 `CONTENT_TYPE_NOT_SUPPORTED`: a media type (or the HTTP Content-Type) the agent refuses. */
export const ContentTypeNotSupportedError = protocolError('ContentTypeNotSupportedError');
export type ContentTypeNotSupportedError = InstanceType<typeof ContentTypeNotSupportedError>;
/** -32006 reported *by the agent*: code `AGENT_REPORTED_INVALID_RESPONSE` (a body *we* reject is an {@link InvalidResponseError}). */
export const InvalidAgentResponseError = protocolError('InvalidAgentResponseError');
export type InvalidAgentResponseError = InstanceType<typeof InvalidAgentResponseError>;
/** -32007 `EXTENDED_AGENT_CARD_NOT_CONFIGURED` (0.3: AuthenticatedExtendedCardNotConfigured). */
export const ExtendedAgentCardNotConfiguredError = protocolError('ExtendedAgentCardNotConfiguredError');
export type ExtendedAgentCardNotConfiguredError = InstanceType<typeof ExtendedAgentCardNotConfiguredError>;
/** -32008 `EXTENSION_SUPPORT_REQUIRED`: the card marks an extension `required` that we did not request. */
export const ExtensionSupportRequiredError = protocolError('ExtensionSupportRequiredError');
export type ExtensionSupportRequiredError = InstanceType<typeof ExtensionSupportRequiredError>;
/** -32009 `VERSION_NOT_SUPPORTED`: the `A2A-Version` we sent is not one the interface serves. */
export const VersionNotSupportedError = protocolError('VersionNotSupportedError');
export type VersionNotSupportedError = InstanceType<typeof VersionNotSupportedError>;

/** The A2A-specific errors, in JSON-RPC code order, and looked up by reason and by code. */
export const PROTOCOL_ERROR_CLASSES: readonly ProtocolErrorClass[] = [
  TaskNotFoundError,
  TaskNotCancelableError,
  PushNotificationNotSupportedError,
  UnsupportedOperationError,
  ContentTypeNotSupportedError,
  InvalidAgentResponseError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  VersionNotSupportedError,
];
export const PROTOCOL_ERRORS_BY_REASON = new Map(PROTOCOL_ERROR_CLASSES.map((c) => [c.reason, c]));
export const PROTOCOL_ERRORS_BY_RPC_CODE = new Map(PROTOCOL_ERROR_CLASSES.map((c) => [c.rpcCode, c]));

// ---------------------------------------------------------------------------------------------
// JSON-RPC standard errors, errors in terms we do not know, and refusals.

// prettier-ignore
const JSON_RPC_STANDARD: Record<number, [code: string, summary: string, advice: string]> = {
  [-32700]: ['PARSE_ERROR',      'the agent could not parse the request as JSON', 'check for a proxy that alters request bodies, and report it if not'],
  [-32600]: ['INVALID_REQUEST',  'the agent rejected the request', 'check that this interface really speaks the binding and version named in the agent card'],
  [-32601]: ['METHOD_NOT_FOUND', 'the agent does not know this method', 'check the protocolVersion of the interface in the agent card (1.0 methods look like SendMessage, 0.3 ones like message/send)'],
  [-32602]: ['INVALID_PARAMS',   'the agent rejected the request parameters', "fix the request as the agent's message says"],
  [-32603]: ['INTERNAL_ERROR',   'the agent failed internally', "retry later, and report it to the agent's maintainers if it persists"],
};

/** A JSON-RPC standard error (-32700…-32603; also HTTP+JSON reason `INVALID_PARAMS`). Only -32603 is retryable. */
export class JsonRpcProtocolError extends A2AError {
  declare readonly rpcCode: number;
  declare readonly httpStatus?: number;
  declare readonly agentMessage: string;

  constructor(rpcCode: number, init: AgentSaid) {
    const [code, summary, advice] = JSON_RPC_STANDARD[rpcCode] ?? JSON_RPC_STANDARD[-32600]!;
    const { agentMessage = '', httpStatus } = init;
    super(`${where(init)} failed: ${summary}${said(agentMessage)}; ${advice}.`, {
      ...init,
      code,
      retryable: rpcCode === -32603,
    });
    keep(this, { rpcCode, agentMessage, httpStatus });
  }

  static isStandardCode(code: number): boolean {
    return code in JSON_RPC_STANDARD;
  }
}

/** An error with a code or reason this client does not know (a custom code, a Status without ErrorInfo). Retryable for HTTP 5xx and the gRPC statuses of a failing server. */
export class UnknownAgentError extends A2AError {
  declare readonly rpcCode?: number;
  declare readonly reason?: string;
  declare readonly httpStatus?: number;
  declare readonly agentMessage: string;

  constructor(init: AgentSaid & { rpcCode?: number; reason?: string; grpcStatus?: string; retryable?: boolean }) {
    const { agentMessage = '', rpcCode, reason, httpStatus, grpcStatus } = init;
    const what = [
      rpcCode !== undefined ? `code ${rpcCode}` : '',
      reason ? `reason ${clip(reason, 64)}` : '',
      httpStatus !== undefined ? `HTTP ${httpStatus}` : '',
      grpcStatus ? `gRPC ${grpcStatus}` : '',
    ].filter(Boolean);
    // gRPC statuses say it themselves (UNKNOWN, INTERNAL, ABORTED…: the server's 5xx); HTTP by the status.
    const retryable = init.retryable ?? (httpStatus !== undefined && httpStatus >= 500);
    const advice = retryable ? 'retry later' : "read the agent's message and fix the request or the agent";
    super(
      `${where(init)} failed with an error the client does not know (${what.join(', ') || 'no code'})${said(agentMessage)}; ${advice}.`,
      { ...init, code: 'AGENT_ERROR', retryable },
    );
    keep(this, { rpcCode, reason, httpStatus, agentMessage });
  }
}

/** HTTP 401 / `UNAUTHENTICATED`: the agent did not accept our credentials (or we sent none). */
export class UnauthenticatedError extends A2AError {
  declare readonly httpStatus?: number;
  constructor(init: AgentSaid & { authScheme?: string }) {
    const message = `${where(init)} was refused because the agent did not accept the client's credentials${asks(init.authScheme)}; check the credentials configured for this agent.`;
    super(message, { ...init, code: 'UNAUTHENTICATED', retryable: false });
    keep(this, { httpStatus: init.httpStatus });
  }
}

/** HTTP 403 / `PERMISSION_DENIED`: authenticated, but not allowed to do this. */
export class PermissionDeniedError extends A2AError {
  declare readonly httpStatus?: number;
  constructor(init: AgentSaid & { authScheme?: string }) {
    const message = `${where(init)} was refused because the client's identity may not do this${asks(init.authScheme)}; ask the agent's operators for access.`;
    super(message, { ...init, code: 'PERMISSION_DENIED', retryable: false });
    keep(this, { httpStatus: init.httpStatus });
  }
}

// ---------------------------------------------------------------------------------------------
// Transport errors.

/** The whole call (or, for a stream, the wait for response headers) took longer than allowed. */
export class TransportTimeoutError extends A2AError {
  declare readonly timeoutMs?: number;
  constructor(init: ErrorContext & { timeoutMs?: number; cause?: unknown }) {
    const after = init.timeoutMs !== undefined ? ` after ${init.timeoutMs} ms` : '';
    const message = `${where(init)} timed out${after}; retry, and before resending a message look for the task it may already have created.`;
    super(message, { ...init, code: 'TIMEOUT', retryable: true });
    keep(this, { timeoutMs: init.timeoutMs });
  }
}

/** The agent could not be reached or the connection broke: refused, reset, DNS, socket closed. */
export class ConnectionError extends A2AError {
  /** The system or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  declare readonly systemCode?: string;
  constructor(init: ErrorContext & { systemCode?: string; midStream?: boolean; cause?: unknown }) {
    const why = init.systemCode ? ` (${clip(init.systemCode, 40)})` : '';
    const message = init.midStream
      ? `${where(init, 'from')} stream broke off because the connection was lost${why}; resubscribe to the task or read it with GetTask.`
      : `${where(init)} could not complete because the connection failed${why}; check that the agent is running and reachable, then retry.`;
    super(message, { ...init, code: 'CONNECTION_FAILED', retryable: true });
    keep(this, { systemCode: init.systemCode });
  }
}

/** A non-2xx HTTP answer that carried no A2A error. 5xx, 408 and 429 are retryable, other 4xx not. */
export class HttpStatusError extends A2AError {
  declare readonly status: number;
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
      retryable: status >= 500 || status === 408 || status === 429,
    });
    keep(this, { status });
  }
}

/** HTTP 429: retryable, after `retryAfterMs` when the agent sent `Retry-After`. */
export class RateLimitedError extends HttpStatusError {
  constructor(init: ErrorContext & { retryAfterMs?: number; cause?: unknown }) {
    const wait = init.retryAfterMs !== undefined ? `after ${Math.ceil(init.retryAfterMs / 1000)} s` : 'later';
    const message = `${where(init)} was rate-limited by the agent (HTTP 429); retry ${wait}.`;
    super(429, { ...init, code: 'RATE_LIMITED', message });
  }
}

/** A stream sent no event for `idleTimeoutMs`. Resubscribe (the first event is the task snapshot). */
export class StreamIdleTimeoutError extends A2AError {
  declare readonly idleTimeoutMs: number;
  constructor(init: ErrorContext & { idleTimeoutMs: number; cause?: unknown }) {
    const message = `${where(init, 'from')} stream sent no event for ${init.idleTimeoutMs} ms; resubscribe to the task or read it with GetTask (a task waiting for input stays silent).`;
    super(message, { ...init, code: 'STREAM_IDLE_TIMEOUT', retryable: true });
    keep(this, { idleTimeoutMs: init.idleTimeoutMs });
  }
}

/** The caller's `AbortSignal` fired; the request was aborted and its socket released. */
export class AbortedError extends A2AError {
  constructor(init: ErrorContext & { cause?: unknown }) {
    const message = `${where(init)} was aborted by the caller; nothing to do unless the abort was unintended.`;
    super(message, { ...init, code: 'ABORTED', retryable: false });
  }
}

// ---------------------------------------------------------------------------------------------
// Client-side verdicts.

/** The agent answered with a body we cannot accept (not JSON, nested too deep, or invalid). Not retryable. */
export class InvalidResponseError extends A2AError {
  /** The field path of the first problem, e.g. `status.state` (empty for the whole body). */
  declare readonly path?: string;
  constructor(message: string, init: ErrorContext & { path?: string; cause?: unknown }) {
    super(message, { ...init, code: 'INVALID_AGENT_RESPONSE', retryable: false });
    keep(this, { path: init.path });
  }
}

type SizeLimit = Exclude<LimitName, 'maxJsonDepth'>;

const TOO_LARGE: Record<SizeLimit, (max: number) => string> = {
  maxBodyBytes: (max) => `a response body larger than ${formatBytes(max)}`,
  maxCardBytes: (max) => `an agent card larger than ${formatBytes(max)}`,
  maxSseLineBytes: (max) => `an SSE line longer than ${formatBytes(max)}`,
  maxSseEventBytes: (max) => `an SSE event larger than ${formatBytes(max)}`,
  maxArtifactsPerTask: (max) => `a task with more than ${max} artifacts`,
  maxPartsPerArtifact: (max) => `an artifact with more than ${max} parts`,
  maxDelegationBytes: (max) =>
    `more than ${formatBytes(max)} of content into one delegation (artifact parts, status texts and questions, what it replaced included)`,
  maxDelegationStoredBytes: (max) =>
    `more than ${formatBytes(max)} of files for the blob store in one delegation (what it replaced included)`,
};

/** The agent sent more than a cap (`A2ALimits`) allows; the request was aborted there. Not retryable. */
export class ResponseTooLargeError extends A2AError {
  /** The cap that was passed, e.g. `maxBodyBytes`, and its value. */
  declare readonly limit: SizeLimit;
  declare readonly max: number;
  constructor(init: ErrorContext & { limit: SizeLimit; max: number; cause?: unknown }) {
    const { limit, max } = init;
    const raise =
      limit === 'maxDelegationBytes'
        ? `${LIMIT_ENV[limit]} for the worker, or "${limit}" on the agent's agents-file entry`
        : limit === 'maxDelegationStoredBytes'
          ? `${LIMIT_ENV[limit]} for the worker`
          : `${LIMIT_ENV[limit]} (client option limits.${limit})`;
    const from = init.operation === undefined && init.agentUrl === undefined ? 'The agent' : where(init, 'from');
    const message = `${from} sent ${TOO_LARGE[limit](max)}, so the client stopped there; if the agent really needs more, raise ${raise}.`;
    super(message, { ...init, code: 'RESPONSE_TOO_LARGE', retryable: false });
    keep(this, { limit, max });
  }
}

/** The agent card offers no interface this client speaks (HTTP+JSON, JSONRPC or GRPC; 1.0 or 0.3, gRPC 1.0 only). */
export class NoUsableInterfaceError extends A2AError {
  /** What the card offers, as `binding version at url` (the first 10). */
  declare readonly offered: string[];
  constructor(offered: string[], init: ErrorContext & { wanted?: string } = {}) {
    const more = offered.length > 5 ? ` and ${offered.length - 5} more` : '';
    const offers = offered.length > 0 ? `offers ${offered.slice(0, 5).join(', ')}${more}` : 'offers no interfaces';
    const at = init.agentUrl ? ` at ${init.agentUrl}` : '';
    const wanted = init.wanted ?? 'HTTP+JSON, JSONRPC or GRPC, 1.0 or 0.3 (gRPC 1.0 only)';
    super(`The agent card${at} ${offers}; we speak ${wanted}, so configure an agent interface we support.`, {
      ...init,
      code: 'NO_USABLE_INTERFACE',
      retryable: false,
    });
    keep(this, { offered: offered.slice(0, 10) });
  }
}

/** A chunk would land beyond the end of its artifact: chunks were missed. Re-read the task and continue from its snapshot. */
export class ArtifactGapError extends A2AError {
  declare readonly artifactId: string;
  declare readonly position: number;
  declare readonly have: number;
  constructor(init: { artifactId: string; position: number; have: number }) {
    const { artifactId, position, have } = init;
    super(
      `Artifact ${quote(artifactId)} received a chunk at part ${position} but only ${have} ${have === 1 ? 'part is' : 'parts are'} known; re-read the task with GetTask and continue from its artifacts.`,
      { code: 'ARTIFACT_GAP', retryable: false },
    );
    keep(this, { artifactId, position, have });
  }
}

/** True for any error thrown by this client. */
export function isA2AError(value: unknown): value is A2AError {
  return value instanceof A2AError;
}
