/**
 * From what came over the wire to a typed {@link A2AError}: JSON-RPC error objects, HTTP+JSON
 * `google.rpc.Status` bodies (told apart by `ErrorInfo.reason`, since many share HTTP 400),
 * 0.3 REST error bodies (`{code, message, data}` with the JSON-RPC code), bare HTTP statuses,
 * and network failures from undici.
 */
import {
  A2AError,
  ConnectionError,
  HttpStatusError,
  JsonRpcProtocolError,
  PROTOCOL_ERRORS_BY_REASON,
  PROTOCOL_ERRORS_BY_RPC_CODE,
  PermissionDeniedError,
  RateLimitedError,
  TransportTimeoutError,
  UnauthenticatedError,
  UnknownAgentError,
  UnsupportedOperationError,
  type ErrorContext,
} from './errors.js';
import { clip, safeCause, scrubbed } from './error-text.js';
import { errorInfos, type ErrorInfo } from './schemas/wire-errors.js';
import { TlsHandshakeError } from './security-errors.js';
import { exceedsDepth } from './validation.js';
import { DEFAULT_LIMITS } from './limits.js';

/** An error context plus the credential values to keep out of messages. */
export interface ErrorScope extends ErrorContext {
  secrets?: readonly string[];
  /** The scheme the card asks for, named by a 401/403 (e.g. `"oauth" (OAuth 2.0 client credentials)`). */
  authScheme?: string;
}

function context(scope: ErrorScope): ErrorContext {
  const ctx: ErrorContext = {};
  if (scope.operation !== undefined) ctx.operation = scope.operation;
  if (scope.agentUrl !== undefined) ctx.agentUrl = scope.agentUrl;
  return ctx;
}

/** The details of a 401/403: the HTTP status and the scheme the card asks for. */
function refusal(scope: ErrorScope, httpStatus: number | undefined): { httpStatus?: number; authScheme?: string } {
  return {
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    ...(scope.authScheme !== undefined ? { authScheme: scope.authScheme } : {}),
  };
}

/** Longest agent message kept on an error (the message itself quotes 160 characters). */
const MAX_AGENT_MESSAGE = 1000;

/** Agent-sent text for an error: scrubbed of the scope's credentials, then cut to `max`. */
function scrub(text: string | undefined, scope: ErrorScope, max = MAX_AGENT_MESSAGE): string {
  return scrubbed(text ?? '', scope.secrets ?? [], max);
}

/** An ErrorInfo's metadata, bounded: 16 entries, short keys, scrubbed values. */
function boundedMetadata(metadata: Record<string, string>, scope: ErrorScope): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata).slice(0, 16)) {
    out[scrub(key, scope, 64)] = scrub(value, scope, 200);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first ErrorInfo whose reason we know (A2A domain preferred). */
function knownReason(infos: ErrorInfo[]): ErrorInfo | undefined {
  return (
    infos.find(
      (i) => PROTOCOL_ERRORS_BY_REASON.has(i.reason) && (i.domain === undefined || i.domain === 'a2a-protocol.org'),
    ) ?? infos.find((i) => PROTOCOL_ERRORS_BY_REASON.has(i.reason))
  );
}

/**
 * A JSON-RPC `error` object (1.0: `data` = ErrorInfo[]; 0.3: free-form `data`).
 * The A2A code wins; a known ErrorInfo reason is the fallback for custom codes.
 */
export function errorFromJsonRpcError(error: unknown, scope: ErrorScope, httpStatus?: number): A2AError {
  const ctx = context(scope);
  const obj = isRecord(error) ? error : {};
  const code = typeof obj.code === 'number' ? obj.code : undefined;
  const agentMessage = scrub(typeof obj.message === 'string' ? obj.message : '', scope);
  const infos = errorInfos(obj.data);
  const info = knownReason(infos);
  const extra = {
    agentMessage,
    ...(code !== undefined ? { rpcCode: code } : {}),
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    ...(info?.metadata ? { errorInfoMetadata: boundedMetadata(info.metadata, scope) } : {}),
  };
  const byCode = code !== undefined ? PROTOCOL_ERRORS_BY_RPC_CODE.get(code) : undefined;
  if (byCode) return new byCode({ ...ctx, ...extra });
  const byReason = info ? PROTOCOL_ERRORS_BY_REASON.get(info.reason) : undefined;
  if (byReason) return new byReason({ ...ctx, ...extra });
  if (code !== undefined && JsonRpcProtocolError.isStandardCode(code)) {
    return new JsonRpcProtocolError(code, {
      ...ctx,
      agentMessage,
      ...(httpStatus !== undefined ? { httpStatus } : {}),
    });
  }
  const reason = infos[0] ? scrub(infos[0].reason, scope, 100) : undefined;
  return new UnknownAgentError({
    ...ctx,
    agentMessage,
    ...(code !== undefined ? { rpcCode: code } : {}),
    ...(reason !== undefined ? { reason } : {}),
    ...(httpStatus !== undefined ? { httpStatus } : {}),
  });
}

/**
 * An HTTP+JSON error body: `{"error":{"code","status","message","details"}}` (1.0,
 * google.rpc.Status). Returns undefined when the value is not such a body.
 */
export function errorFromRpcStatus(body: unknown, scope: ErrorScope, httpStatus?: number): A2AError | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const status = body.error;
  // A JSON-RPC error object also sits under "error", but with a negative code.
  if ('jsonrpc' in body || (typeof status.code === 'number' && status.code < 0)) return undefined;
  const ctx = context(scope);
  const agentMessage = scrub(typeof status.message === 'string' ? status.message : '', scope);
  const http = httpStatus ?? (typeof status.code === 'number' ? status.code : undefined);
  const statusName = typeof status.status === 'string' ? scrub(status.status, scope, 100) : undefined;
  const infos = errorInfos(status.details);
  const info = knownReason(infos);
  if (info) {
    const ctor = PROTOCOL_ERRORS_BY_REASON.get(info.reason)!;
    return new ctor({
      ...ctx,
      agentMessage,
      ...(http !== undefined ? { httpStatus: http } : {}),
      ...(info.metadata ? { errorInfoMetadata: boundedMetadata(info.metadata, scope) } : {}),
    });
  }
  // The official SDK's "request malformed" (bad JSON, missing messageId) has reason INVALID_PARAMS.
  if (infos.some((i) => i.reason === 'INVALID_PARAMS') || (statusName === 'INVALID_ARGUMENT' && infos.length === 0)) {
    return new JsonRpcProtocolError(-32602, {
      ...ctx,
      agentMessage,
      ...(http !== undefined ? { httpStatus: http } : {}),
    });
  }
  if (statusName === 'UNAUTHENTICATED' || http === 401)
    return new UnauthenticatedError({ ...ctx, ...refusal(scope, http) });
  if (statusName === 'PERMISSION_DENIED' || http === 403)
    return new PermissionDeniedError({ ...ctx, ...refusal(scope, http) });
  const reason = infos[0] ? scrub(infos[0].reason, scope, 100) : statusName;
  return new UnknownAgentError({
    ...ctx,
    agentMessage,
    ...(reason !== undefined ? { reason } : {}),
    ...(http !== undefined ? { httpStatus: http } : {}),
  });
}

/**
 * A non-2xx HTTP answer. 401, 403 and 429 are decided by the status; otherwise an A2A error in
 * the body (JSON-RPC error, google.rpc.Status, or a 0.3 `{code, message}` body) wins, and a
 * body without one becomes an {@link HttpStatusError} (5xx retryable, 4xx not).
 */
export function errorFromHttpResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  scope: ErrorScope,
): A2AError {
  const ctx = context(scope);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
    return new RateLimitedError({ ...ctx, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  if (status === 401) return new UnauthenticatedError({ ...ctx, ...refusal(scope, status) });
  if (status === 403) return new PermissionDeniedError({ ...ctx, ...refusal(scope, status) });
  let body: unknown;
  try {
    // A body nested too deep is not an error object we can read: it is quoted like any other.
    body = text.trim() && !exceedsDepth(text, DEFAULT_LIMITS.maxJsonDepth) ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  if (isRecord(body)) {
    const fromStatus = errorFromRpcStatus(body, scope, status);
    if (fromStatus) return fromStatus;
    if (isRecord(body.error) && typeof body.error.code === 'number')
      return errorFromJsonRpcError(body.error, scope, status);
    // 0.3 HTTP+JSON error body: the JSON-RPC error object itself.
    if (typeof body.code === 'number' && typeof body.message === 'string')
      return errorFromJsonRpcError(body, scope, status);
  }
  const snippet = scrub(text.trim(), scope, 200);
  return new HttpStatusError(status, { ...ctx, ...(snippet ? { bodySnippet: snippet } : {}) });
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The longest wait a `Retry-After` can ask for: 5 minutes (an agent cannot park a retry for days). */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * `Retry-After`: delay-seconds or an HTTP-date; returns milliseconds from `now`, never negative
 * and at most {@link MAX_RETRY_AFTER_MS}.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.length > 64) return undefined;
  const trimmed = value.trim();
  const seconds = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) * 1000 : undefined;
  const date = seconds === undefined ? Date.parse(trimmed) : Number.NaN;
  const ms = seconds ?? (Number.isNaN(date) ? undefined : date - now);
  return ms === undefined ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}

/** An A2AError thrown inside the network stack (the outbound policy's address guard), looked for along `cause`. */
function a2aErrorWithin(error: unknown): A2AError | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = error; isErrorLike(e) && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (e instanceof A2AError) return e;
  }
  return undefined;
}

/** Certificate problems of the server's side (we do not trust it). */
const SERVER_CERT_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** TLS alerts the agent sends about our certificate (OpenSSL's names, as Node reports them). */
const CLIENT_CERT_ALERTS = new Set(
  [
    'TLSV13_ALERT_CERTIFICATE_REQUIRED',
    'SSLV3_ALERT_BAD_CERTIFICATE',
    'SSLV3_ALERT_CERTIFICATE_UNKNOWN',
    'SSLV3_ALERT_CERTIFICATE_EXPIRED',
    'SSLV3_ALERT_HANDSHAKE_FAILURE',
    'TLSV1_ALERT_UNKNOWN_CA',
    'TLSV1_ALERT_DECRYPT_ERROR',
    'TLSV1_ALERT_ACCESS_DENIED',
  ].map((alert) => `ERR_SSL_${alert}`),
);

/**
 * Whether a network error code is a TLS verdict retrying cannot change: `server` (its certificate
 * is not trusted) or `client` (an alert about our certificate: missing, unknown CA, bad, expired).
 */
function tlsFailure(code: string): 'server' | 'client' | undefined {
  if (SERVER_CERT_CODES.has(code)) return 'server';
  return CLIENT_CERT_ALERTS.has(code) ? 'client' : undefined;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** The system or undici code of a network error (looking through `cause` and AggregateError). */
export function networkErrorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (isErrorLike(current) && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isErrorLike(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * A failure of the HTTP exchange itself (no answer, or a broken one): timeouts become
 * {@link TransportTimeoutError}, everything with a network error code {@link ConnectionError}.
 * Returns undefined for errors that are not network failures (bugs are not disguised).
 */
export function errorFromNetwork(
  error: unknown,
  scope: ErrorScope,
  options: { midStream?: boolean } = {},
): A2AError | undefined {
  const refused = a2aErrorWithin(error);
  if (refused) return refused;
  const code = networkErrorCode(error);
  if (code === undefined) return undefined;
  const ctx = context(scope);
  const cause = safeCause(error, scope.secrets ?? []);
  if (TIMEOUT_CODES.has(code)) return new TransportTimeoutError({ ...ctx, cause });
  const tls = tlsFailure(code);
  if (tls)
    return new TlsHandshakeError({ ...ctx, systemCode: clip(code, 60), clientCertificate: tls === 'client', cause });
  return new ConnectionError({
    ...ctx,
    systemCode: clip(code, 60),
    cause,
    ...(options.midStream ? { midStream: true } : {}),
  });
}

/** gRPC status codes by number (grpc/doc/statuscodes.md). */
const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** The statuses of a server that is failing rather than refusing (what HTTP says with 5xx): retrying can help. */
const GRPC_RETRYABLE = new Set(['UNKNOWN', 'DEADLINE_EXCEEDED', 'ABORTED', 'INTERNAL', 'DATA_LOSS']);

/** A status an agent sent over gRPC: its code, message, and the `google.rpc.Status` details we read. */
export interface GrpcStatusReport {
  code: number;
  /** The status message (`grpc-message`), as the agent sent it: scrubbed and bounded here. */
  message: string;
  /** The ErrorInfo details (`grpc-status-details-bin`), the first few. */
  infos: ErrorInfo[];
  /** A `google.rpc.RetryInfo` delay, in milliseconds (capped here like `Retry-After`). */
  retryDelayMs?: number;
}

/**
 * A status sent by the agent over gRPC, into the same error table as the HTTP bindings: an
 * ErrorInfo reason we know decides (A2A 1.0 §10.6); without one the status code does, with the
 * same rules as HTTP (UNAUTHENTICATED 401, PERMISSION_DENIED 403, RESOURCE_EXHAUSTED 429 with
 * RetryInfo as Retry-After, INVALID_ARGUMENT 400; UNIMPLEMENTED is 1.0.0's UnsupportedOperation;
 * UNAVAILABLE and the 5xx-like statuses retryable, everything else not).
 */
export function errorFromGrpcStatus(status: GrpcStatusReport, scope: ErrorScope): A2AError {
  const ctx = context(scope);
  const agentMessage = scrub(status.message, scope);
  const name = GRPC_STATUS_NAMES[status.code] ?? `code ${status.code}`;
  const info = knownReason(status.infos);
  if (info) {
    const ctor = PROTOCOL_ERRORS_BY_REASON.get(info.reason)!;
    return new ctor({
      ...ctx,
      agentMessage,
      ...(info.metadata ? { errorInfoMetadata: boundedMetadata(info.metadata, scope) } : {}),
    });
  }
  if (status.infos.some((i) => i.reason === 'INVALID_PARAMS') || (name === 'INVALID_ARGUMENT' && !status.infos.length))
    return new JsonRpcProtocolError(-32602, { ...ctx, agentMessage });
  if (name === 'UNAUTHENTICATED') return new UnauthenticatedError({ ...ctx, ...refusal(scope, undefined) });
  if (name === 'PERMISSION_DENIED') return new PermissionDeniedError({ ...ctx, ...refusal(scope, undefined) });
  if (name === 'RESOURCE_EXHAUSTED') {
    const retryAfterMs =
      status.retryDelayMs === undefined ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, status.retryDelayMs));
    return new RateLimitedError({ ...ctx, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  if (name === 'UNAVAILABLE') return new ConnectionError({ ...ctx, systemCode: 'UNAVAILABLE' });
  if (name === 'UNIMPLEMENTED') return new UnsupportedOperationError({ ...ctx, agentMessage });
  const reason = status.infos[0] ? scrub(status.infos[0].reason, scope, 100) : undefined;
  return new UnknownAgentError({
    ...ctx,
    agentMessage,
    grpcStatus: name,
    retryable: GRPC_RETRYABLE.has(name),
    ...(reason !== undefined ? { reason } : {}),
  });
}
