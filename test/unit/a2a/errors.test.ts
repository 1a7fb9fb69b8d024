import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { A2AError, isA2AError } from '../../../a2a/index.js';
import {
  PROTOCOL_ERROR_CLASSES,
  PROTOCOL_ERRORS_BY_REASON,
  PROTOCOL_ERRORS_BY_RPC_CODE,
  A2AProtocolError,
  AbortedError,
  ConnectionError,
  HttpStatusError,
  InvalidAgentResponseError,
  InvalidResponseError,
  NoUsableInterfaceError,
  RateLimitedError,
  ResponseTooLargeError,
  StreamIdleTimeoutError,
  TaskNotFoundError,
  TransportTimeoutError,
  UnsupportedOperationError,
} from '../../../a2a/errors.js';
import { MAX_ERROR_MESSAGE_LENGTH } from '../../../a2a/error-text.js';

const ctx = { operation: 'GetTask', agentUrl: 'http://127.0.0.1:4000/a2a/rest' };

describe('error classes', () => {
  it('give every A2A protocol error its ErrorInfo reason as code and a one-sentence message', () => {
    const table = PROTOCOL_ERROR_CLASSES.map((C) => {
      const e = new C({ ...ctx, agentMessage: 'agent words' });
      return [e.name, e.code, e.reason, e.retryable];
    });
    expect(table).toMatchInlineSnapshot(`
      [
        [
          "TaskNotFoundError",
          "TASK_NOT_FOUND",
          "TASK_NOT_FOUND",
          false,
        ],
        [
          "TaskNotCancelableError",
          "TASK_NOT_CANCELABLE",
          "TASK_NOT_CANCELABLE",
          false,
        ],
        [
          "PushNotificationNotSupportedError",
          "PUSH_NOTIFICATION_NOT_SUPPORTED",
          "PUSH_NOTIFICATION_NOT_SUPPORTED",
          false,
        ],
        [
          "UnsupportedOperationError",
          "UNSUPPORTED_OPERATION",
          "UNSUPPORTED_OPERATION",
          false,
        ],
        [
          "ContentTypeNotSupportedError",
          "CONTENT_TYPE_NOT_SUPPORTED",
          "CONTENT_TYPE_NOT_SUPPORTED",
          false,
        ],
        [
          "InvalidAgentResponseError",
          "AGENT_REPORTED_INVALID_RESPONSE",
          "INVALID_AGENT_RESPONSE",
          false,
        ],
        [
          "ExtendedAgentCardNotConfiguredError",
          "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
          "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
          false,
        ],
        [
          "ExtensionSupportRequiredError",
          "EXTENSION_SUPPORT_REQUIRED",
          "EXTENSION_SUPPORT_REQUIRED",
          false,
        ],
        [
          "VersionNotSupportedError",
          "VERSION_NOT_SUPPORTED",
          "VERSION_NOT_SUPPORTED",
          false,
        ],
      ]
    `);
  });

  it('writes protocol messages as what happened, the agent words, and what to do', () => {
    expect(new TaskNotFoundError({ ...ctx, agentMessage: 'Task not found: nope' }).message).toMatchInlineSnapshot(
      `"GetTask to http://127.0.0.1:4000/a2a/rest failed: the agent does not know this task ("Task not found: nope"); check the task id, and start a new task if the agent has lost it."`,
    );
  });

  it('keeps our own invalid-body verdict apart from the agent reporting -32006', () => {
    expect(new InvalidResponseError('x', ctx).code).toBe('INVALID_AGENT_RESPONSE');
    expect(new InvalidAgentResponseError(ctx).code).toBe('AGENT_REPORTED_INVALID_RESPONSE');
  });

  it('classifies transport errors as retryable and the caller abort as not', () => {
    expect(new TransportTimeoutError({ ...ctx, timeoutMs: 500 })).toMatchObject({ code: 'TIMEOUT', retryable: true });
    expect(new ConnectionError({ ...ctx, systemCode: 'ECONNREFUSED' })).toMatchObject({
      code: 'CONNECTION_FAILED',
      retryable: true,
    });
    expect(new StreamIdleTimeoutError({ ...ctx, idleTimeoutMs: 100 })).toMatchObject({
      code: 'STREAM_IDLE_TIMEOUT',
      retryable: true,
    });
    expect(new HttpStatusError(503, ctx)).toMatchObject({ code: 'HTTP_STATUS', retryable: true, status: 503 });
    expect(new HttpStatusError(404, ctx)).toMatchObject({ retryable: false });
    expect(new RateLimitedError({ ...ctx, retryAfterMs: 2000 })).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterMs: 2000,
      status: 429,
    });
    expect(new AbortedError(ctx)).toMatchObject({ code: 'ABORTED', retryable: false });
  });

  it('lists what a card offers when no interface is usable', () => {
    expect(
      new NoUsableInterfaceError(['GRPC 0.3 at http://a:1/', 'JSONRPC 0.2 at http://a/rpc']).message,
    ).toMatchInlineSnapshot(
      `"The agent card offers GRPC 0.3 at http://a:1/, JSONRPC 0.2 at http://a/rpc; we speak HTTP+JSON, JSONRPC or GRPC, 1.0 or 0.3 (gRPC 1.0 only), so configure an agent interface we support."`,
    );
  });

  it('keeps the cause', () => {
    const cause = new Error('socket hang up');
    expect(new ConnectionError({ ...ctx, cause }).cause).toBe(cause);
  });

  it('supports instanceof along the hierarchy', () => {
    const e = new UnsupportedOperationError(ctx);
    expect(e).toBeInstanceOf(UnsupportedOperationError);
    expect(e).toBeInstanceOf(A2AProtocolError);
    expect(e).toBeInstanceOf(A2AError);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(TaskNotFoundError);
    expect(new RateLimitedError(ctx)).toBeInstanceOf(HttpStatusError);
    expect(isA2AError(e)).toBe(true);
    expect(isA2AError(new Error('x'))).toBe(false);
  });

  it('answers instanceof by brand, so an error from another realm or module copy still matches', () => {
    const foreign: unknown = runInNewContext(`
      const e = new Error('from elsewhere');
      e[Symbol.for('a2a-temporal.A2AError')] = true;
      e[Symbol.for('a2a-temporal.TaskNotFoundError')] = true;
      e;
    `);
    expect(foreign).toBeInstanceOf(TaskNotFoundError);
    expect(foreign).toBeInstanceOf(A2AError);
    expect(foreign).not.toBeInstanceOf(UnsupportedOperationError);
  });
});

describe('error table and bounds', () => {
  it('generates each protocol class from its table row, with its name, reason and JSON-RPC code', () => {
    expect(PROTOCOL_ERROR_CLASSES.map((C) => [C.name, C.reason, C.rpcCode])).toEqual(
      PROTOCOL_ERROR_CLASSES.map((C, i) => [new C().name, new C().reason, -32001 - i]),
    );
    expect(PROTOCOL_ERRORS_BY_REASON.get('TASK_NOT_FOUND')).toBe(TaskNotFoundError);
    expect(PROTOCOL_ERRORS_BY_RPC_CODE.get(-32004)).toBe(UnsupportedOperationError);
  });

  it('names the passed cap and the setting that raises it', () => {
    const error = new ResponseTooLargeError({ ...ctx, limit: 'maxSseEventBytes', max: 8 * 1024 * 1024 });
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', retryable: false, limit: 'maxSseEventBytes' });
    expect(error.message).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest sent an SSE event larger than 8 MiB, so the client stopped there; if the agent really needs more, raise A2A_MAX_SSE_EVENT_BYTES (client option limits.maxSseEventBytes)."`,
    );
    expect(new ResponseTooLargeError({ limit: 'maxArtifactsPerTask', max: 1000 }).message).toContain(
      'sent a task with more than 1000 artifacts',
    );
  });

  it(`keeps every message within ${MAX_ERROR_MESSAGE_LENGTH} characters`, () => {
    const long = { operation: 'GetTask', agentUrl: `http://agent.test/${'p'.repeat(5000)}` };
    for (const error of [
      new TaskNotFoundError({ ...long, agentMessage: 'x'.repeat(5000) }),
      new UnsupportedOperationError({ ...long, message: 'y'.repeat(5000) }),
      new NoUsableInterfaceError(
        Array.from({ length: 500 }, (_, i) => `GRPC 1.0 at http://a/${i}`),
        long,
      ),
      new InvalidResponseError('z'.repeat(5000), long),
    ]) {
      expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
    }
  });
});
