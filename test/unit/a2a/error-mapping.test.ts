import { describe, expect, it } from 'vitest';
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  HttpStatusError,
  InvalidAgentResponseError,
  JsonRpcProtocolError,
  PermissionDeniedError,
  PushNotificationNotSupportedError,
  RateLimitedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnauthenticatedError,
  UnknownAgentError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '../../../a2a/errors.js';
import { MAX_ERROR_MESSAGE_LENGTH } from '../../../a2a/error-text.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../a2a/error-mapping.js';
import {
  errorFromHttpResponse,
  errorFromJsonRpcError,
  errorFromNetwork,
  errorFromRpcStatus,
} from '../../../a2a/error-mapping.js';
import { CAPTURED_JSONRPC_TASK_NOT_FOUND, restError } from './fixtures/wire-captures.js';

const scope = { operation: 'SendMessage', agentUrl: 'http://agent.test/a2a' };

function errorInfo(reason: string) {
  return [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }];
}

describe('JSON-RPC errors', () => {
  it.each([
    [-32001, 'TASK_NOT_FOUND', TaskNotFoundError],
    [-32002, 'TASK_NOT_CANCELABLE', TaskNotCancelableError],
    [-32003, 'PUSH_NOTIFICATION_NOT_SUPPORTED', PushNotificationNotSupportedError],
    [-32004, 'UNSUPPORTED_OPERATION', UnsupportedOperationError],
    [-32005, 'CONTENT_TYPE_NOT_SUPPORTED', ContentTypeNotSupportedError],
    [-32006, 'INVALID_AGENT_RESPONSE', InvalidAgentResponseError],
    [-32007, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', ExtendedAgentCardNotConfiguredError],
    [-32008, 'EXTENSION_SUPPORT_REQUIRED', ExtensionSupportRequiredError],
    [-32009, 'VERSION_NOT_SUPPORTED', VersionNotSupportedError],
  ])('maps code %i (reason %s) to its class, with and without ErrorInfo', (code, reason, Class) => {
    const withInfo = errorFromJsonRpcError({ code, message: 'm', data: errorInfo(reason) }, scope);
    const without = errorFromJsonRpcError({ code, message: 'm' }, scope);
    expect(withInfo).toBeInstanceOf(Class);
    expect(without).toBeInstanceOf(Class);
    expect(withInfo).toMatchObject({
      rpcCode: code,
      reason,
      agentMessage: 'm',
      operation: 'SendMessage',
      retryable: false,
    });
  });

  it('maps the captured -32001 response', () => {
    const error = errorFromJsonRpcError(CAPTURED_JSONRPC_TASK_NOT_FOUND.error, scope);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect(error.message).toContain('("Task not found: nope")');
  });

  it.each([
    [-32700, 'PARSE_ERROR', false],
    [-32600, 'INVALID_REQUEST', false],
    [-32601, 'METHOD_NOT_FOUND', false],
    [-32602, 'INVALID_PARAMS', false],
    [-32603, 'INTERNAL_ERROR', true],
  ])('maps standard code %i to JsonRpcProtocolError %s (retryable: %s)', (code, name, retryable) => {
    const error = errorFromJsonRpcError({ code, message: 'x' }, scope);
    expect(error).toBeInstanceOf(JsonRpcProtocolError);
    expect(error).toMatchObject({ code: name, rpcCode: code, retryable });
  });

  it('accepts the free-form data of 0.3 errors', () => {
    expect(errorFromJsonRpcError({ code: -32001, message: 'gone', data: { taskId: 'T' } }, scope)).toBeInstanceOf(
      TaskNotFoundError,
    );
  });

  it('falls back to a known ErrorInfo reason under a custom code, and to UnknownAgentError otherwise', () => {
    expect(
      errorFromJsonRpcError({ code: -32050, message: 'x', data: errorInfo('TASK_NOT_FOUND') }, scope),
    ).toBeInstanceOf(TaskNotFoundError);
    const unknown = errorFromJsonRpcError({ code: -32050, message: 'custom' }, scope);
    expect(unknown).toBeInstanceOf(UnknownAgentError);
    expect(unknown).toMatchObject({ code: 'AGENT_ERROR', retryable: false, rpcCode: -32050 });
    expect(unknown.message).toMatchInlineSnapshot(
      `"SendMessage to http://agent.test/a2a failed with an error the client does not know (code -32050) ("custom"); read the agent's message and fix the request or the agent."`,
    );
  });
});

describe('HTTP+JSON errors (google.rpc.Status told apart by ErrorInfo.reason)', () => {
  it.each([
    [404, 'NOT_FOUND', 'TASK_NOT_FOUND', TaskNotFoundError],
    [400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE', TaskNotCancelableError],
    [400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED', PushNotificationNotSupportedError],
    [400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION', UnsupportedOperationError],
    [400, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED', ContentTypeNotSupportedError],
    [500, 'INTERNAL', 'INVALID_AGENT_RESPONSE', InvalidAgentResponseError],
    [400, 'FAILED_PRECONDITION', 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', ExtendedAgentCardNotConfiguredError],
    [400, 'FAILED_PRECONDITION', 'EXTENSION_SUPPORT_REQUIRED', ExtensionSupportRequiredError],
    [400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED', VersionNotSupportedError],
    // 1.0.0 statuses for the same errors
    [409, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE', TaskNotCancelableError],
    [415, 'INVALID_ARGUMENT', 'CONTENT_TYPE_NOT_SUPPORTED', ContentTypeNotSupportedError],
    [502, 'INTERNAL', 'INVALID_AGENT_RESPONSE', InvalidAgentResponseError],
    [501, 'UNIMPLEMENTED', 'UNSUPPORTED_OPERATION', UnsupportedOperationError],
  ])('maps HTTP %i %s with reason %s to its class', (status, statusName, reason, Class) => {
    const error = errorFromHttpResponse(
      status,
      {},
      JSON.stringify(restError(status, statusName, reason, 'words')),
      scope,
    );
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ httpStatus: status, agentMessage: 'words' });
  });

  it('maps the SDK "request malformed" (reason INVALID_PARAMS) to INVALID_PARAMS', () => {
    const error = errorFromHttpResponse(
      400,
      {},
      JSON.stringify(restError(400, 'INVALID_ARGUMENT', 'INVALID_PARAMS', 'message.messageId is required')),
      scope,
    );
    expect(error).toBeInstanceOf(JsonRpcProtocolError);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', retryable: false, httpStatus: 400 });
  });

  it('maps a Status without ErrorInfo by its status name', () => {
    expect(errorFromRpcStatus({ error: { code: 401, status: 'UNAUTHENTICATED', message: '' } }, scope)).toBeInstanceOf(
      UnauthenticatedError,
    );
    expect(
      errorFromRpcStatus({ error: { code: 403, status: 'PERMISSION_DENIED', message: '' } }, scope),
    ).toBeInstanceOf(PermissionDeniedError);
    expect(
      errorFromRpcStatus({ error: { code: 500, status: 'UNAVAILABLE', message: 'db down' } }, scope),
    ).toMatchObject({
      code: 'AGENT_ERROR',
      retryable: true,
      reason: 'UNAVAILABLE',
    });
    expect(errorFromRpcStatus({ not: 'a status' }, scope)).toBeUndefined();
  });

  it('maps a 0.3 REST error body ({code, message} with the JSON-RPC code)', () => {
    expect(errorFromHttpResponse(404, {}, '{"code":-32001,"message":"Task not found: T"}', scope)).toBeInstanceOf(
      TaskNotFoundError,
    );
    expect(errorFromHttpResponse(400, {}, '{"code":-32004,"message":"nope"}', scope)).toBeInstanceOf(
      UnsupportedOperationError,
    );
  });

  it('maps a JSON-RPC error response sent with a non-200 status', () => {
    expect(
      errorFromHttpResponse(500, {}, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}', scope),
    ).toMatchObject({
      code: 'INTERNAL_ERROR',
      retryable: true,
      httpStatus: 500,
    });
  });
});

describe('bare HTTP statuses', () => {
  it('decides 401, 403 and 429 by the status alone', () => {
    expect(
      errorFromHttpResponse(401, {}, JSON.stringify(restError(401, 'X', 'TASK_NOT_FOUND', '')), scope),
    ).toBeInstanceOf(UnauthenticatedError);
    expect(errorFromHttpResponse(403, {}, '', scope)).toBeInstanceOf(PermissionDeniedError);
    expect(errorFromHttpResponse(429, {}, '', scope)).toBeInstanceOf(RateLimitedError);
  });

  it('makes 5xx retryable and other 4xx not, quoting a short body', () => {
    const unavailable = errorFromHttpResponse(503, {}, 'upstream unavailable', scope);
    expect(unavailable).toBeInstanceOf(HttpStatusError);
    expect(unavailable).toMatchObject({ retryable: true, status: 503 });
    expect(unavailable.message).toMatchInlineSnapshot(
      `"SendMessage to http://agent.test/a2a failed with HTTP 503 ("upstream unavailable"); the agent or a proxy in front of it is failing, so retry later."`,
    );
    expect(errorFromHttpResponse(404, {}, '<html>Cannot POST</html>', scope)).toMatchObject({
      retryable: false,
      status: 404,
    });
    expect(errorFromHttpResponse(502, {}, '', scope)).toMatchObject({ retryable: true });
  });

  it('reads Retry-After in seconds on 429', () => {
    const error = errorFromHttpResponse(429, { 'retry-after': '7' }, '', scope);
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000, code: 'RATE_LIMITED' });
    expect(error.message).toMatchInlineSnapshot(
      `"SendMessage to http://agent.test/a2a was rate-limited by the agent (HTTP 429); retry after 7 s."`,
    );
  });

  it('reads Retry-After as an HTTP-date on 429', () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const error = errorFromHttpResponse(429, { 'retry-after': inTenSeconds }, '', scope);
    expect(error.retryAfterMs).toBeGreaterThan(8_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(10_000);
  });

  it('keeps credentials out of messages even when the agent echoes them', () => {
    const scoped = { ...scope, secrets: ['Bearer s3cr3t-token', 's3cr3t-token'] };
    const error = errorFromHttpResponse(500, {}, 'bad token s3cr3t-token', scoped);
    expect(error.message).not.toContain('s3cr3t-token');
    expect(error.message).toContain('[redacted]');
    const rpc = errorFromJsonRpcError({ code: -32602, message: 'header Bearer s3cr3t-token rejected' }, scoped);
    expect(rpc.message).not.toContain('s3cr3t');
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds, HTTP-dates, and rejects garbage', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('network failures', () => {
  it('maps refused, reset and DNS failures to retryable ConnectionError', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']) {
      const error = errorFromNetwork(Object.assign(new Error(code), { code }), scope);
      expect(error).toMatchObject({ code: 'CONNECTION_FAILED', retryable: true, systemCode: code });
    }
  });

  it('finds the code inside an AggregateError and a cause chain', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(errorFromNetwork(new AggregateError([inner]), scope)).toMatchObject({ systemCode: 'ECONNREFUSED' });
    expect(errorFromNetwork(new TypeError('fetch failed', { cause: inner }), scope)).toMatchObject({
      systemCode: 'ECONNREFUSED',
    });
  });

  it('maps undici timeouts to TransportTimeoutError', () => {
    expect(errorFromNetwork(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), scope)).toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('leaves errors without a network code alone (bugs are not disguised)', () => {
    expect(errorFromNetwork(new TypeError('bad header'), scope)).toBeUndefined();
  });
});

describe('bounds and secrets of mapped errors', () => {
  const secret = 'k3y/with+odd"chars';
  const scoped = { ...scope, secrets: [secret] };

  it('caps Retry-After at 5 minutes, in seconds and as a date', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(MAX_RETRY_AFTER_MS).toBe(300_000);
    expect(parseRetryAfter('86400', now)).toBe(300_000);
    expect(parseRetryAfter('Wed, 21 Oct 2099 07:28:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('1'.repeat(10_000), now)).toBeUndefined();
    expect(errorFromHttpResponse(429, { 'retry-after': '999999999' }, '', scope).retryAfterMs).toBe(300_000);
  });

  it('scrubs a credential echoed as sent, percent-encoded, form-encoded or JSON-escaped', () => {
    for (const echoed of [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)]) {
      const error = errorFromHttpResponse(400, {}, `bad key ${echoed}`, scoped);
      expect(error.message).toContain('[redacted]');
      expect(error.message).not.toContain('k3y');
    }
    const json = JSON.stringify({ error: { code: 400, status: 'INVALID_ARGUMENT', message: `bad key ${secret}` } });
    expect(errorFromHttpResponse(400, {}, json, scoped).message).not.toContain('k3y');
    const rpc = errorFromJsonRpcError(
      { code: -32050, message: 'x', data: [{ reason: `R_${secret}`, metadata: { echo: secret } }] },
      scoped,
    );
    expect(JSON.stringify({ ...rpc, message: rpc.message })).not.toContain('k3y');
  });

  it('keeps agent words, reasons and ErrorInfo metadata bounded', () => {
    const metadata = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v'.repeat(10_000)]));
    const error = errorFromJsonRpcError(
      { code: -32001, message: 'm'.repeat(100_000), data: [{ reason: 'TASK_NOT_FOUND', metadata }] },
      scope,
    );
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect((error as TaskNotFoundError).agentMessage.length).toBeLessThanOrEqual(1000);
    expect(Object.keys((error as TaskNotFoundError).errorInfoMetadata ?? {})).toHaveLength(16);
    expect(JSON.stringify(error).length).toBeLessThan(6_000);
    expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
    const reason = errorFromRpcStatus({ error: { code: 500, status: 'S'.repeat(100_000), message: '' } }, scope);
    expect(reason?.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
  });

  it('quotes a deeply nested error body instead of parsing it', () => {
    const error = errorFromHttpResponse(500, {}, '['.repeat(50_000), scope);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error.message).toContain('failed with HTTP 500 ("[[[[');
  });

  it('keeps only a scrubbed copy of a network error as the cause', () => {
    const raw = Object.assign(new Error(`connect ECONNREFUSED http://agent.test/?api_key=${secret}`), {
      code: 'ECONNREFUSED',
    });
    const error = errorFromNetwork(new TypeError('fetch failed', { cause: raw }), scoped)!;
    const cause = error.cause as Error & { cause: Error & { code: string } };
    expect(cause).not.toBe(raw);
    expect(cause.cause.message).toBe('connect ECONNREFUSED http://agent.test/?api_key=[redacted]');
    expect(cause.cause.code).toBe('ECONNREFUSED');
    expect(`${cause.stack}${cause.cause.stack}`).not.toContain('k3y');
  });
});

describe('a refusal by the agent (401/403)', () => {
  it('names the scheme the card asks for', () => {
    const scope = {
      operation: 'SendMessage',
      agentUrl: 'https://a.example/a2a',
      authScheme: 'scheme "oa" (OAuth 2.0 clientCredentials)',
    };
    expect(errorFromHttpResponse(401, {}, '', scope).message).toBe(
      'SendMessage to https://a.example/a2a was refused because the agent did not accept the client\'s credentials (the card asks for scheme "oa" (OAuth 2.0 clientCredentials)); check the credentials configured for this agent.',
    );
    expect(errorFromHttpResponse(403, {}, '', scope).message).toContain('(the card asks for scheme "oa"');
  });
});
