/**
 * Property-based fuzzing of everything an agent can answer: status codes, headers, unary bodies,
 * SSE framing, deep nesting, huge and odd ids, wrong types, echoed credentials. Every generated
 * answer is served by an undici MockAgent to the real transports (HTTP+JSON and JSON-RPC, A2A 1.0
 * and 0.3) and must end in a valid result or in a typed A2AError: not retryable unless the failure
 * is one a retry can help (HTTP 5xx, 408, 429, a JSON-RPC -32603, a timeout, a broken connection),
 * with a message of at most MAX_ERROR_MESSAGE_LENGTH characters and no credential anywhere in its
 * cause chain. The SSE reader is fuzzed on its own as well: however its bytes are chunked, it
 * yields the same events. And the gRPC binding's decoding: well-formed answers as protobuf, then
 * cut, flipped or replaced by stray bytes, must decode to a valid 1.0 object or fail typed.
 */
import * as pb from '@bufbuild/protobuf';
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import fc from 'fast-check';
import { z } from 'zod';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AError,
  createA2AClient,
  DEFAULT_LIMITS,
  type A2AClient,
  type A2ALimits,
  type StreamResponse,
} from '../../../a2a/index.js';
import {
  ConnectionError,
  HttpStatusError,
  JsonRpcProtocolError,
  ResponseTooLargeError,
  StreamIdleTimeoutError,
  TransportTimeoutError,
  UnknownAgentError,
} from '../../../a2a/errors.js';
import { ListTasksResponseSchema } from '../../../a2a/schemas/requests.js';
import { MAX_ERROR_MESSAGE_LENGTH } from '../../../a2a/error-text.js';
import { SendMessageResponseSchema, StreamResponseSchema } from '../../../a2a/schemas/events.js';
import {
  ListTaskPushNotificationConfigsResponseSchema,
  TaskPushNotificationConfigSchema,
} from '../../../a2a/schemas/push-config.js';
import { decodeMessage } from '../../../a2a/grpc/codec.js';
import * as a2aPb from '../../../a2a/grpc/gen/a2a_pb.js';
import { resolveLimits } from '../../../a2a/limits.js';
import { parseWire } from '../../../a2a/validation.js';
import { TaskSchema } from '../../../a2a/schemas/task.js';
import { readSseEvents, type SseEvent } from '../../../a2a/sse.js';
import type { SelectedInterface } from '../../../a2a/agent-card.js';
import { ORIGIN, collect } from './helpers/mock-agent.js';

const TOKEN = 'fuzz-b3arer-T0KEN';
const API_KEY = 'fuzz-qu3ry-KEY/+"x';
const SECRETS = [TOKEN, API_KEY, encodeURIComponent(API_KEY), JSON.stringify(API_KEY).slice(1, -1)];

/** Small caps, so that a few kilobytes of generated input reach every one of them. */
const LIMITS: Partial<A2ALimits> = {
  maxBodyBytes: 64 * 1024,
  maxSseLineBytes: 16 * 1024,
  maxSseEventBytes: 32 * 1024,
  maxArtifactsPerTask: 5,
  maxPartsPerArtifact: 5,
};

/**
 * `npm test` replays one fixed seed, so CI never fails for a reason the change under test did not
 * cause; `npm run fuzz` draws fresh seeds (`A2A_FUZZ_SEED=fresh`) and runs more
 * (`A2A_FUZZ_SCALE`). A seed that ever failed goes into {@link REGRESSIONS} with the path
 * fast-check printed, and replays its counterexample on every run.
 */
const SEED = process.env.A2A_FUZZ_SEED === 'fresh' ? undefined : Number(process.env.A2A_FUZZ_SEED ?? 20_261_201);
const SCALE = Number(process.env.A2A_FUZZ_SCALE ?? 1);
const RUNS = 3_000 * SCALE;
const SSE_RUNS = 500 * SCALE;

/** Counterexamples found by fresh seeds: seed and path as fast-check printed them. */
const REGRESSIONS: Array<{ seed: number; path: string; why: string }> = [
  {
    seed: 1342735035,
    path: '2254',
    why: 'a streaming call answered with one JSON task nested exactly to the cap: the array of events is one level deeper, and valid',
  },
];

const ENDPOINTS: SelectedInterface[] = [
  { url: `${ORIGIN}/rest`, binding: 'HTTP+JSON', protocolVersion: '1.0' },
  { url: `${ORIGIN}/rpc`, binding: 'JSONRPC', protocolVersion: '1.0' },
  { url: `${ORIGIN}/rest03`, binding: 'HTTP+JSON', protocolVersion: '0.3' },
  { url: `${ORIGIN}/rpc03`, binding: 'JSONRPC', protocolVersion: '0.3' },
];

// ---------------------------------------------------------------------------------------------
// What an agent may send.

const secretText = fc.constantFrom(
  TOKEN,
  `Bearer ${TOKEN}`,
  API_KEY,
  encodeURIComponent(API_KEY),
  `key=${API_KEY}`,
  `header was "Bearer ${TOKEN}"`,
);
const text = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 20 }) }, secretText);
const id = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('T', 'C', 'a', 'm-1') },
  text,
  fc.constant(''),
  fc.constant('i'.repeat(257)),
  fc.constant('__proto__'),
  fc.integer(),
  fc.constant(null),
);
const odd = fc.oneof(fc.anything({ maxDepth: 3, maxKeys: 4 }), text);
const state = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_INPUT_REQUIRED') },
  fc.constantFrom('working', 'completed', 'input-required', 'canceled', 'TASK_STATE_CANCELLED', 'bogus'),
  odd,
);
const part = fc.oneof(
  fc.record({ text }),
  fc.record({ kind: fc.constant('text'), text }),
  fc.record({ data: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('file'), file: fc.record({ uri: text, bytes: text }, { requiredKeys: [] }) }),
  fc.record({ url: text, raw: text }, { requiredKeys: [] }),
  odd,
);
const parts = fc.array(part, { maxLength: 7 });
const message = fc.record(
  {
    kind: fc.constant('message'),
    messageId: id,
    role: fc.oneof(fc.constantFrom('ROLE_AGENT', 'ROLE_USER', 'agent', 'user'), odd),
    parts,
    contextId: id,
    taskId: id,
    metadata: odd,
  },
  { requiredKeys: ['messageId', 'role'] },
);
const taskStatus = fc.record({ state, message, timestamp: text }, { requiredKeys: ['state'] });
const artifact = fc.record(
  { artifactId: id, parts, name: text, metadata: odd, extensions: fc.array(odd, { maxLength: 3 }) },
  { requiredKeys: ['artifactId'] },
);
const task = fc.record(
  {
    kind: fc.constant('task'),
    id,
    contextId: id,
    status: fc.oneof({ weight: 5, arbitrary: taskStatus }, odd),
    artifacts: fc.oneof(fc.array(artifact, { maxLength: 7 }), odd),
    history: fc.array(message, { maxLength: 2 }),
    metadata: odd,
  },
  { requiredKeys: ['id', 'status'] },
);
const statusUpdate = fc.record(
  { kind: fc.constant('status-update'), taskId: id, contextId: id, status: taskStatus, final: fc.boolean() },
  { requiredKeys: ['taskId', 'status'] },
);
const artifactUpdate = fc.record(
  {
    kind: fc.constant('artifact-update'),
    taskId: id,
    contextId: id,
    artifact,
    append: fc.boolean(),
    lastChunk: fc.boolean(),
  },
  { requiredKeys: ['taskId', 'artifact'] },
);
const pushConfig = fc.record(
  {
    taskId: id,
    id,
    url: text,
    name: text,
    token: text,
    pushNotificationConfig: fc.record({ id, url: text }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const bare = fc.oneof(task, message, statusUpdate, artifactUpdate, pushConfig);
const wrapped = fc.oneof(
  fc.record({ task }),
  fc.record({ message }),
  fc.record({ msg: message }),
  fc.record({ statusUpdate }),
  fc.record({ artifactUpdate }),
  fc.record({ tasks: fc.array(task, { maxLength: 3 }), nextPageToken: text }, { requiredKeys: [] }),
  fc.record({ configs: fc.array(pushConfig, { maxLength: 3 }) }),
  fc.record({ task, message }),
);
const payload = fc.oneof(bare, wrapped, fc.array(pushConfig, { maxLength: 3 }), odd);
const errorInfo = fc.record(
  {
    '@type': fc.constantFrom('type.googleapis.com/google.rpc.ErrorInfo', 'x'),
    reason: fc.oneof(
      fc.constantFrom('TASK_NOT_FOUND', 'UNSUPPORTED_OPERATION', 'INVALID_PARAMS', 'VERSION_NOT_SUPPORTED'),
      text,
      odd,
    ),
    domain: fc.constantFrom('a2a-protocol.org', 'elsewhere'),
    metadata: fc.oneof(fc.dictionary(text, text, { maxKeys: 4 }), odd),
  },
  { requiredKeys: [] },
);
const rpcCode = fc.oneof(
  fc.constantFrom(-32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009),
  fc.constantFrom(-32700, -32600, -32601, -32602, -32603),
  fc.integer(),
  odd,
);
const rpcError = fc.record(
  { code: rpcCode, message: fc.oneof(text, odd), data: fc.oneof(fc.array(errorInfo, { maxLength: 3 }), odd) },
  { requiredKeys: [] },
);
const rpcResponse = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), odd), result: payload }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), error: rpcError }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat() }),
);
const restError = fc.oneof(
  fc.record({
    error: fc.record(
      {
        code: fc.oneof(fc.integer({ min: 100, max: 599 }), odd),
        status: fc.oneof(fc.constantFrom('NOT_FOUND', 'UNAUTHENTICATED', 'INVALID_ARGUMENT', 'UNAVAILABLE'), text),
        message: fc.oneof(text, odd),
        details: fc.oneof(fc.array(errorInfo, { maxLength: 3 }), odd),
      },
      { requiredKeys: [] },
    ),
  }),
  rpcError,
);
const json = fc.oneof(rpcResponse, restError, payload).map((value) => JSON.stringify(value) ?? 'null');
/** A well-formed task whose metadata nests `n` deep: valid in every respect but depth. */
function deepInValidPlace(n: number): string[] {
  const task = `{"id":"T","status":{"state":"TASK_STATE_WORKING"},"metadata":{"x":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`;
  return [task, `{"jsonrpc":"2.0","id":1,"result":${task}}`, `{"task":${task}}`];
}
const deep = fc
  .integer({ min: 60, max: 20_000 })
  .chain((n) =>
    fc.constantFrom(
      `${'['.repeat(n)}${']'.repeat(n)}`,
      `{"result":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
      '['.repeat(n),
      ...deepInValidPlace(n),
    ),
  );
const body = fc.oneof(
  { weight: 8, arbitrary: json },
  json.chain((j) => fc.nat({ max: j.length }).map((cut) => j.slice(0, cut))),
  deep,
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '<html>Bad gateway</html>', `<html>${TOKEN}</html>`, 'null', '[]', '"a"', '1e999'),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.integer({ min: 64 * 1024, max: 80 * 1024 }).map((n) => `{"task":"${'x'.repeat(n)}"}`),
  fc.integer({ min: 6, max: 60 }).map((n) =>
    JSON.stringify({
      task: {
        id: 'T',
        status: { state: 'TASK_STATE_WORKING' },
        artifacts: Array.from({ length: n }, (_, i) => ({ artifactId: `a${i}`, parts: [] })),
      },
    }),
  ),
);

const eol = fc.constantFrom('\n', '\r\n', '\r');
const sseLine = fc.oneof(
  { weight: 6, arbitrary: json.map((j) => `data: ${j}`) },
  body.map((b) => `data:${b}`),
  fc.constantFrom(': keep-alive', ':', 'event: error', 'event: message', 'id: 7', 'retry: 10', 'retry: soon', 'data'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 16 * 1024, max: 20 * 1024 }).map((n) => `data: "${'y'.repeat(n)}"`),
  fc
    .integer({ min: 3, max: 6 })
    .map((n) => Array.from({ length: n }, () => `data: ${'z'.repeat(12 * 1024)}`).join('\n')),
);
const sse = fc
  .tuple(fc.array(fc.array(sseLine, { minLength: 1, maxLength: 4 }), { maxLength: 6 }), eol, fc.boolean())
  .map(
    ([events, end, blank]) => events.map((lines) => lines.join(end)).join(`${end}${end}`) + (blank ? end + end : ''),
  );

const httpStatus = fc.oneof(
  { weight: 6, arbitrary: fc.constant(200) },
  fc.constantFrom(201, 204, 301, 400, 401, 403, 404, 405, 408, 409, 415, 429, 500, 501, 502, 503, 504),
  fc.integer({ min: 200, max: 599 }),
);
const headers = fc.oneof(
  fc.record({
    'content-type': fc.constantFrom(
      'application/json',
      'application/a2a+json; charset=utf-8',
      'text/event-stream',
      'text/html',
      'application/octet-stream',
    ),
  }),
  fc.record({ 'content-type': fc.constant('application/json'), 'content-length': fc.constant('999999999') }),
  fc.record({
    'content-type': fc.constant('application/json'),
    'retry-after': fc.oneof(
      fc.nat().map(String),
      fc.string({ maxLength: 12 }),
      fc.constant('Wed, 21 Oct 2099 07:28:00 GMT'),
    ),
  }),
);

// Well-formed answers, so that the fuzz also walks the paths that succeed (and mutations of them).

const goodId = fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/);
const goodPart = fc.oneof(
  fc.record({ text: fc.string({ maxLength: 20 }) }),
  fc.record({ data: fc.jsonValue({ maxDepth: 2 }) }),
);
const goodArtifact = fc.record({ artifactId: goodId, parts: fc.array(goodPart, { maxLength: 4 }) });
const STATES = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_COMPLETED',
] as const;
const goodTask = fc.record({
  id: goodId,
  contextId: goodId,
  status: fc.record({ state: fc.constantFrom(...STATES) }),
  artifacts: fc.array(goodArtifact, { maxLength: 4 }),
});
const goodMessage = fc.record({
  messageId: goodId,
  role: fc.constant('ROLE_AGENT'),
  parts: fc.array(goodPart, { minLength: 1, maxLength: 3 }),
});
const goodPush = fc.record({ taskId: goodId, id: goodId, url: fc.constant('https://hook.test/a2a') });

/** A 1.0 object as 0.3 JSON-RPC sends it: `kind` tags, lower-case states, roles `agent`. */
function kinded(value: Record<string, unknown>, kind: string): Record<string, unknown> {
  const legacy = JSON.parse(
    JSON.stringify(value)
      .replaceAll('TASK_STATE_INPUT_REQUIRED', 'input-required')
      .replaceAll(/TASK_STATE_([A-Z]+)/g, (_, s: string) => s.toLowerCase())
      .replaceAll('ROLE_AGENT', 'agent'),
  ) as Record<string, unknown>;
  return { kind, ...legacy };
}

const goodEvent = fc.oneof(
  goodTask.map((task) => ({ task })),
  goodMessage.map((message) => ({ message })),
  fc
    .record({ taskId: goodId, status: fc.record({ state: fc.constantFrom(...STATES) }) })
    .map((statusUpdate) => ({ statusUpdate })),
  fc
    .record({ taskId: goodId, artifact: goodArtifact, append: fc.boolean() })
    .map((artifactUpdate) => ({ artifactUpdate })),
);

/** The JSON a well-behaved agent would answer `operation` with on `endpoint`. */
function wellFormed(endpoint: SelectedInterface, operation: Operation, streamEvent = false): fc.Arbitrary<string> {
  const v03 = endpoint.protocolVersion === '0.3';
  const rpc = endpoint.binding === 'JSONRPC';
  const legacy = (wrapped: Record<string, unknown>): unknown => {
    if (!v03) return wrapped;
    const [key, value] = Object.entries(wrapped)[0]!;
    const kind = { task: 'task', message: 'message', statusUpdate: 'status-update', artifactUpdate: 'artifact-update' }[
      key
    ]!;
    return rpc ? kinded(value as Record<string, unknown>, kind) : wrapped;
  };
  let result: fc.Arbitrary<unknown>;
  if (streamEvent || operation === 'sendStreamingMessage' || operation === 'subscribeToTask') {
    result = goodEvent.map(legacy);
  } else if (operation === 'sendMessage') {
    result = fc
      .oneof(
        goodTask.map((task) => ({ task })),
        goodMessage.map((message) => ({ message })),
      )
      .map(legacy);
  } else if (operation === 'getTask' || operation === 'cancelTask') {
    result = goodTask.map((task) => (v03 && rpc ? kinded(task, 'task') : task));
  } else if (operation === 'listTasks') {
    result = fc.array(goodTask, { maxLength: 3 }).map((tasks) => ({ tasks, nextPageToken: '' }));
  } else if (operation === 'listPushConfigs') {
    result = fc
      .array(goodPush, { maxLength: 3 })
      .map((configs) =>
        v03 ? configs.map(({ taskId, id, url }) => ({ taskId, pushNotificationConfig: { id, url } })) : { configs },
      );
  } else if (operation === 'deletePushConfig') {
    result = fc.constant({});
  } else {
    result = goodPush.map(({ taskId, id, url }) =>
      v03 ? { taskId, pushNotificationConfig: { id, url } } : { taskId, id, url },
    );
  }
  return result.map((value) => JSON.stringify(rpc ? { jsonrpc: '2.0', id: 1, result: value } : value));
}

const OPERATIONS = [
  'sendMessage',
  'getTask',
  'cancelTask',
  'listTasks',
  'createPushConfig',
  'getPushConfig',
  'listPushConfigs',
  'deletePushConfig',
  'sendStreamingMessage',
  'subscribeToTask',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** A generated piece of an answer, and whether it is what a well-behaved agent would send. */
type Piece = { text: string; good: boolean };
const good = (a: fc.Arbitrary<string>): fc.Arbitrary<Piece> => a.map((text) => ({ text, good: true }));
const bad = (a: fc.Arbitrary<string>): fc.Arbitrary<Piece> => a.map((text) => ({ text, good: false }));

const answer = fc
  .tuple(fc.constantFrom(...ENDPOINTS), fc.constantFrom(...OPERATIONS))
  .chain(([endpoint, operation]) => {
    const streaming = operation === 'sendStreamingMessage' || operation === 'subscribeToTask';
    const unary = fc.oneof(
      { weight: 3, arbitrary: good(wellFormed(endpoint, operation)) },
      { weight: 7, arbitrary: bad(body) },
    );
    const line = fc.oneof(
      { weight: 3, arbitrary: good(wellFormed(endpoint, operation, true).map((j) => `data: ${j}`)) },
      bad(sseLine),
    );
    const stream = fc
      .tuple(fc.array(fc.array(line, { minLength: 1, maxLength: 3 }), { maxLength: 6 }), eol, fc.boolean())
      .map(([events, end, blank]) => ({
        text: events.map((l) => l.map((p) => p.text).join(end)).join(end + end) + (blank ? end + end : ''),
        good: events.every((l) => l.every((p) => p.good)),
      }));
    const contentType = { 'content-type': streaming ? 'text/event-stream' : 'application/json' };
    return fc
      .record({
        endpoint: fc.constant(endpoint),
        operation: fc.constant(operation),
        status: fc.oneof({ weight: 4, arbitrary: fc.constant(200) }, httpStatus),
        headers: fc.oneof({ weight: 4, arbitrary: fc.constant(contentType) }, headers),
        body: streaming
          ? fc.oneof({ weight: 4, arbitrary: stream }, { weight: 1, arbitrary: unary }, bad(sse))
          : fc.oneof({ weight: 9, arbitrary: unary }, bad(sse)),
      })
      .map((a) => ({ ...a, malformed: a.status !== 200 || a.headers !== contentType || !a.body.good }));
  });

// ---------------------------------------------------------------------------------------------
// Driving the real transports.

const userMessage = { messageId: 'm-1', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };

async function call(client: A2AClient, operation: Operation): Promise<unknown> {
  switch (operation) {
    case 'sendMessage':
      return SendMessageResponseSchema.parse(await client.sendMessage({ message: userMessage }));
    case 'getTask':
      return TaskSchema.parse(await client.getTask({ id: 'T', historyLength: 1 }));
    case 'cancelTask':
      return TaskSchema.parse(await client.cancelTask({ id: 'T' }));
    case 'listTasks':
      return ListTasksResponseSchema.parse(await client.listTasks({ contextId: 'C' }));
    case 'createPushConfig':
      return TaskPushNotificationConfigSchema.parse(
        await client.createPushConfig({ taskId: 'T', url: 'https://hook.test/a2a' }),
      );
    case 'getPushConfig':
      return TaskPushNotificationConfigSchema.parse(await client.getPushConfig({ taskId: 'T', id: 'c' }));
    case 'listPushConfigs': {
      const listed = await client.listPushConfigs({ taskId: 'T' });
      return listed.configs.map((c) => TaskPushNotificationConfigSchema.parse(c));
    }
    case 'deletePushConfig':
      return client.deletePushConfig({ taskId: 'T', id: 'c' });
    case 'sendStreamingMessage':
      return events(await collect(client.sendStreamingMessage({ message: userMessage })));
    case 'subscribeToTask':
      return events(await collect(client.subscribeToTask({ id: 'T' })));
  }
}

function events(received: StreamResponse[]): StreamResponse[] {
  return received.map((event) => StreamResponseSchema.parse(event));
}

/** Retrying can help these, and only these. */
function mayBeRetryable(error: A2AError): boolean {
  if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 408 || error.status === 429;
  if (error instanceof UnknownAgentError) return (error.httpStatus ?? 0) >= 500;
  if (error instanceof JsonRpcProtocolError) return error.rpcCode === -32603;
  return (
    error instanceof TransportTimeoutError ||
    error instanceof ConnectionError ||
    error instanceof StreamIdleTimeoutError
  );
}

/** Messages, names and stacks of the error and its causes. */
function chain(error: unknown): string {
  const texts: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth += 1) {
    texts.push(e.name, e.message, e.stack ?? '', JSON.stringify(e));
  }
  return texts.join('\n');
}

/** Counts of how the answers ended, so the test can check the generators reach every ending. */
interface Outcomes {
  malformed: number;
  results: number;
  failures: number;
  tooLarge: number;
  retryable: number;
}

/** The property: every generated answer ends in a valid result or a typed, bounded, scrubbed error. */
function endsWell(outcomes: Outcomes) {
  return fc.asyncProperty(answer, async ({ endpoint, operation, status, headers, body, malformed }) => {
    if (malformed) outcomes.malformed += 1;
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get(ORIGIN)
      .intercept({ path: () => true, method: () => true })
      .reply(status, body.text, { headers })
      .persist();
    const client = createA2AClient(
      { endpoint },
      {
        dispatcher: mock,
        timeoutMs: 5_000,
        limits: LIMITS,
        auth: () => ({ headers: { authorization: `Bearer ${TOKEN}` }, query: { api_key: API_KEY } }),
      },
    );
    try {
      const result = await call(client, operation);
      // Each body nests at most the cap deep; a stream's result is the array of its events, one level more.
      expect(depthOf(result)).toBeLessThanOrEqual(DEFAULT_LIMITS.maxJsonDepth + (Array.isArray(result) ? 1 : 0));
      expect(JSON.parse(JSON.stringify(result ?? null))).toEqual(result ?? null);
      outcomes.results += 1;
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      outcomes.failures += 1;
      if (error instanceof ResponseTooLargeError) outcomes.tooLarge += 1;
      if (error.retryable) {
        outcomes.retryable += 1;
        expect(mayBeRetryable(error), `${error.name} should not be retryable: ${error.message}`).toBe(true);
      }
      expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
      const everything = chain(error);
      for (const secret of SECRETS) expect(everything).not.toContain(secret);
    } finally {
      await mock.close();
    }
  });
}

describe('response parsing under fuzzing', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);
  beforeAll(() => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  });
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  });

  it(
    `ends ${RUNS} answers (over 2,000 malformed), both bindings and versions, in a valid result or a typed bounded error`,
    async () => {
      const outcomes: Outcomes = { malformed: 0, results: 0, failures: 0, tooLarge: 0, retryable: 0 };
      await fc.assert(endsWell(outcomes), { numRuns: RUNS, seed: SEED });
      expect(uncaught).toEqual([]);
      // The generators reach every kind of ending.
      expect(outcomes.malformed).toBeGreaterThanOrEqual(2_000 * SCALE);
      expect(outcomes.results).toBeGreaterThan(0);
      expect(outcomes.failures).toBeGreaterThan(RUNS / 2);
      expect(outcomes.tooLarge).toBeGreaterThan(0);
      expect(outcomes.retryable).toBeGreaterThan(0);
    },
    120_000 * SCALE,
  );

  it.each(REGRESSIONS)('replays the counterexample of seed $seed: $why', async ({ seed, path }) => {
    const outcomes: Outcomes = { malformed: 0, results: 0, failures: 0, tooLarge: 0, retryable: 0 };
    await fc.assert(endsWell(outcomes), { seed, path, endOnFailure: true });
    expect(uncaught).toEqual([]);
  });

  it(`reads ${SSE_RUNS} fuzzed SSE streams to the same events however their bytes are chunked`, async () => {
    const bytes = sse.map((s) => new TextEncoder().encode(s));
    const cuts = fc.array(fc.nat(), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(bytes, cuts, async (stream, at) => {
        const whole = await read([stream]);
        const points = [...new Set(at.map((n) => n % (stream.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...points, stream.length]
          .slice(1)
          .map((end, i, ends) => stream.slice(i ? ends[i - 1] : 0, end));
        expect(await read(pieces)).toEqual(whole);
      }),
      { numRuns: SSE_RUNS, seed: SEED },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The gRPC binding: protobuf bytes instead of JSON text.

const PROTO_RUNS = 2_000 * SCALE;

/** Each operation's response message, as the generated code and as our zod schema see it. */
const PROTO_RESPONSES: Record<Operation, [pb.DescMessage, z.ZodType]> = {
  sendMessage: [a2aPb.SendMessageResponseSchema, SendMessageResponseSchema],
  getTask: [a2aPb.TaskSchema, TaskSchema],
  cancelTask: [a2aPb.TaskSchema, TaskSchema],
  listTasks: [a2aPb.ListTasksResponseSchema, ListTasksResponseSchema],
  createPushConfig: [a2aPb.TaskPushNotificationConfigSchema, TaskPushNotificationConfigSchema],
  getPushConfig: [a2aPb.TaskPushNotificationConfigSchema, TaskPushNotificationConfigSchema],
  listPushConfigs: [a2aPb.ListTaskPushNotificationConfigsResponseSchema, ListTaskPushNotificationConfigsResponseSchema],
  deletePushConfig: [EmptySchema, z.object({})],
  sendStreamingMessage: [a2aPb.StreamResponseSchema, StreamResponseSchema],
  subscribeToTask: [a2aPb.StreamResponseSchema, StreamResponseSchema],
};

const GRPC_ENDPOINT: SelectedInterface = { url: 'http://127.0.0.1:1', binding: 'HTTP+JSON', protocolVersion: '1.0' };

/** What a gRPC agent may send: a well-formed message as protobuf, then cut, flipped, padded, or bytes of no message at all. */
const protoAnswer = fc.constantFrom(...OPERATIONS).chain((operation) => {
  const [schema] = PROTO_RESPONSES[operation];
  const encoded = fc.oneof(wellFormed(GRPC_ENDPOINT, operation), body).map((json) => {
    try {
      return pb.toBinary(schema, pb.fromJson(schema, JSON.parse(json) as pb.JsonValue, { ignoreUnknownFields: true }));
    } catch {
      return new TextEncoder().encode(json); // not a message at all: its JSON text as bytes
    }
  });
  const mutated = fc
    .tuple(encoded, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat())
    .map(([bytes, flips, cut]) => {
      const out = Uint8Array.from(bytes);
      for (const [at, value] of flips) if (out.length) out[at % out.length] = value;
      return out.subarray(0, out.length ? out.length - (cut % Math.min(out.length, 8)) : 0);
    });
  const bytes = fc.oneof(
    { weight: 4, arbitrary: encoded },
    { weight: 4, arbitrary: mutated },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  );
  return fc.record({ operation: fc.constant(operation), bytes });
});

describe('protobuf decoding under fuzzing', () => {
  it(`ends ${PROTO_RUNS} gRPC answers, every response message, in a valid 1.0 object or a typed bounded error`, () => {
    let results = 0;
    let failures = 0;
    fc.assert(
      fc.property(protoAnswer, ({ operation, bytes }) => {
        const [schema, zod] = PROTO_RESPONSES[operation];
        const ctx = { operation, what: schema.name, secrets: SECRETS, limits: resolveLimits(LIMITS) };
        try {
          const result = parseWire(zod, decodeMessage(schema, bytes, ctx), ctx);
          expect(depthOf(result)).toBeLessThanOrEqual(DEFAULT_LIMITS.maxJsonDepth);
          expect(JSON.parse(JSON.stringify(result))).toEqual(result);
          results += 1;
        } catch (error) {
          if (!(error instanceof A2AError)) throw error;
          failures += 1;
          expect(error.retryable).toBe(false);
          expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE_LENGTH);
          const everything = chain(error);
          for (const secret of SECRETS) expect(everything).not.toContain(secret);
        }
      }),
      { numRuns: PROTO_RUNS, seed: SEED },
    );
    expect(results).toBeGreaterThan(PROTO_RUNS / 10);
    expect(failures).toBeGreaterThan(PROTO_RUNS / 10);
  });
});

/** How deep objects and arrays nest in `value` (iteratively: the value may be deeper than the stack). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, d + 1);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** The events of a stream, or the cap it passed. */
async function read(chunks: Uint8Array[]): Promise<SseEvent[] | string> {
  async function* source(): AsyncGenerator<Uint8Array> {
    yield* chunks;
  }
  try {
    const out: SseEvent[] = [];
    for await (const event of readSseEvents(source(), { maxLineBytes: 16 * 1024, maxEventBytes: 32 * 1024 })) {
      out.push(event);
    }
    return out;
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    return (error as ResponseTooLargeError).limit;
  }
}
