/**
 * The gRPC binding against real servers on 127.0.0.1: the official SDK's gRPC service (our sample
 * agent with `bindings: ['GRPC']`, TLS and mutual TLS included) for the protocol, and the hostile
 * grpc-js server of the test suite for everything an agent could do wrong.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { durationFromMs, anyPack } from '@bufbuild/protobuf/wkt';
import { Metadata, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../../agents/index.js';
import { createA2AClient, OutboundPolicy, type A2AClientOptions } from '../../../../a2a/index.js';
import { A2AError } from '../../../../a2a/errors.js';
import { GrpcChannelPool } from '../../../../a2a/grpc/channels.js';
import { grpcInterfaceUrl } from '../../../../a2a/grpc/target.js';
import { SendMessageResponseSchema, TaskSchema, TaskState } from '../../../../a2a/grpc/gen/a2a_pb.js';
import { RetryInfoSchema } from '../../../../a2a/grpc/gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../../../../a2a/grpc/gen/google/rpc/status_pb.js';
import { makeCertificates, pem } from '../../../helpers/certificates.js';
import { startHostileGrpc, type GrpcReply, type GrpcScript, type HostileGrpc } from '../../../hostile/hostile-grpc.js';

const channels = new GrpcChannelPool();
const agents: RunningAgent[] = [];
const servers: HostileGrpc[] = [];
afterAll(async () => {
  channels.close();
  await Promise.all([...agents.map((a) => a.close()), ...servers.map((s) => s.close())]);
});

const MESSAGE = {
  messageId: 'm-1',
  role: 'ROLE_USER' as const,
  parts: [{ text: 'Check payment-service for Node.js 24' }],
};
const MANIFEST = {
  data: { name: 'payment-service', dependencies: { express: '^4.18.2' } },
  mediaType: 'application/json',
};

function clientOf(address: string, options: A2AClientOptions = {}) {
  return createA2AClient(
    { endpoint: { url: address, binding: 'GRPC', protocolVersion: '1.0' } },
    { timeoutMs: 5_000, grpcChannels: channels, ...options },
  );
}

async function hostile(script: GrpcScript | ((call: { operation: string }) => GrpcReply | undefined)) {
  const server = await startHostileGrpc(typeof script === 'function' ? { intercept: script } : script, {} as never);
  servers.push(server);
  return server;
}

async function failure(promise: Promise<unknown>): Promise<A2AError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(A2AError);
  return error as A2AError;
}

describe('the gRPC binding against the SDK gRPC server', () => {
  let agent: RunningAgent;
  beforeAll(async () => {
    agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0, bindings: ['GRPC'] });
    agents.push(agent);
  });

  it('sends, streams, reads, lists and cancels, with 1.0 objects validated like the HTTP bindings', async () => {
    const client = clientOf(agent.grpcAddress!);
    const events = [];
    for await (const event of client.sendStreamingMessage({
      message: { ...MESSAGE, parts: [...MESSAGE.parts, MANIFEST] },
    }))
      events.push(event);
    expect(events[0]).toHaveProperty('task.status.state', 'TASK_STATE_SUBMITTED');
    expect(events.at(-1)).toHaveProperty('statusUpdate.status.state', 'TASK_STATE_COMPLETED');
    const taskId = 'task' in events[0]! ? events[0].task.id : '';
    const task = await client.getTask({ id: taskId, historyLength: 1 });
    expect(task.artifacts?.[0]?.parts.length).toBeGreaterThan(0);
    expect((await client.listTasks({ pageSize: 10 })).tasks.map((t) => t.id)).toContain(taskId);

    const sent = await client.sendMessage({
      message: {
        ...MESSAGE,
        messageId: 'm-2',
        metadata: { scenario: 'never-finish' },
        parts: [...MESSAGE.parts, MANIFEST],
      },
      configuration: { returnImmediately: true },
    });
    const running = 'task' in sent ? sent.task.id : '';
    expect((await client.cancelTask({ id: running })).status.state).toBe('TASK_STATE_CANCELED');
    expect(await failure(client.cancelTask({ id: taskId }))).toMatchObject({
      code: 'TASK_NOT_CANCELABLE',
      retryable: false,
    });
    expect(await failure(client.getTask({ id: 'nope' }))).toMatchObject({ code: 'TASK_NOT_FOUND', retryable: false });
    expect(await failure(client.getExtendedAgentCard())).toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
  });

  it('creates, reads, lists and deletes push configs', async () => {
    const client = clientOf(agent.grpcAddress!);
    const sent = await client.sendMessage({
      message: {
        ...MESSAGE,
        messageId: 'm-3',
        metadata: { scenario: 'never-finish' },
        parts: [...MESSAGE.parts, MANIFEST],
      },
      configuration: { returnImmediately: true },
    });
    const taskId = 'task' in sent ? sent.task.id : '';
    const created = await client.createPushConfig({ taskId, url: 'http://127.0.0.1:9/hook', token: 't' });
    expect(created).toMatchObject({ taskId, url: 'http://127.0.0.1:9/hook' });
    expect(await client.getPushConfig({ taskId, id: created.id! })).toMatchObject({ id: created.id });
    expect((await client.listPushConfigs({ taskId })).configs).toHaveLength(1);
    await client.deletePushConfig({ taskId, id: created.id! });
    expect((await client.listPushConfigs({ taskId })).configs).toHaveLength(0);
    await client.cancelTask({ id: taskId });
  });

  it('ends the HTTP/2 stream when the caller aborts', async () => {
    const server = await hostile((call) =>
      call.operation === 'SubscribeToTask' ? { stream: () => undefined } : undefined,
    );
    const controller = new AbortController();
    const stream = clientOf(server.address).subscribeToTask({ id: 't' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await failure(stream.next())).toMatchObject({ code: 'ABORTED' });
    await expect.poll(() => server.cancelledStreams()).toBe(1);
  });
});

describe('TLS and mutual TLS', () => {
  const certs = makeCertificates();
  let agent: RunningAgent;
  beforeAll(async () => {
    agent = await startDependencyCompatAgent({
      port: 0,
      bindings: ['GRPC'],
      security: { tls: { cert: pem(certs.serverCert), key: pem(certs.serverKey), clientCa: pem(certs.caCert) } },
    });
    agents.push(agent);
  });

  it('presents the entry certificate and verifies the agent against its CA', async () => {
    const url = `https://${agent.grpcAddress!}`;
    const tls = { cert: pem(certs.clientCert), key: pem(certs.clientKey), ca: pem(certs.caCert) };
    const list = await clientOf(url, { tls }).listTasks({});
    expect(list.tasks).toEqual([]);
  });

  it('fails in the handshake, not retryable, without our certificate or without the agent CA', async () => {
    const url = `https://${agent.grpcAddress!}`;
    expect(await failure(clientOf(url, { tls: { ca: pem(certs.caCert) } }).listTasks({}))).toMatchObject({
      code: 'TLS_HANDSHAKE_FAILED',
      retryable: false,
    });
    const unknownCa = { cert: pem(certs.clientCert), key: pem(certs.clientKey) };
    expect(await failure(clientOf(url, { tls: unknownCa }).listTasks({}))).toMatchObject({
      code: 'TLS_HANDSHAKE_FAILED',
      retryable: false,
    });
  });
});

describe('the outbound policy and credentials on gRPC', () => {
  const token = 'secret-token-4711';
  const auth = () => ({ headers: { authorization: `Bearer ${token}` } });

  it('sends credentials as metadata only to a trusted origin, and A2A-Version and the trace context always', async () => {
    const server = await hostile(() => ({ status: { code: status.NOT_FOUND, details: 'no' } }));
    const observer = {
      request: () => ({
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
        end() {},
      }),
    };
    const trusted = new OutboundPolicy({ origin: `http://${server.address}` });
    await failure(clientOf(server.address, { auth, policy: trusted, observer }).getTask({ id: 't' }));
    const stranger = new OutboundPolicy({ origin: 'http://127.0.0.1:1' });
    await failure(clientOf(server.address, { auth, policy: stranger }).getTask({ id: 't' }));
    const [first, second] = server.calls;
    expect(first?.metadata).toMatchObject({
      authorization: `Bearer ${token}`,
      'a2a-version': '1.0',
      traceparent: expect.any(String),
    });
    expect(second?.metadata).not.toHaveProperty('authorization');
    expect(second?.metadata).toHaveProperty('a2a-version', '1.0');
  });

  it('refuses plain text beyond loopback, and an API key in the query string, before anything is sent', async () => {
    const insecure = clientOf('http://192.0.2.1:50051', {
      policy: new OutboundPolicy({ origin: 'http://192.0.2.1:50051' }),
    });
    expect(await failure(insecure.getTask({ id: 't' }))).toMatchObject({ code: 'OUTBOUND_REFUSED' });
    const server = await hostile(() => undefined);
    const query = clientOf(server.address, { auth: () => ({ query: { api_key: 'k-123456789' } }) });
    expect(await failure(query.getTask({ id: 't' }))).toMatchObject({ code: 'OUTBOUND_REFUSED' });
    expect(server.calls).toHaveLength(0);
  });

  it('scrubs credentials the agent echoes in a status', async () => {
    const server = await hostile(() => ({
      status: { code: status.INVALID_ARGUMENT, details: `you sent Bearer ${token}` },
    }));
    const error = await failure(clientOf(server.address, { auth }).getTask({ id: 't' }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).not.toContain(token);
  });

  it('turns a bare host:port into a URL of the card scheme (or TLS beyond loopback)', () => {
    expect(grpcInterfaceUrl('127.0.0.1:50051', 'http://127.0.0.1:4000/.well-known/agent-card.json')).toBe(
      'http://127.0.0.1:50051',
    );
    expect(grpcInterfaceUrl('agent.example:443', 'https://agent.example/.well-known/agent-card.json')).toBe(
      'https://agent.example:443',
    );
    expect(grpcInterfaceUrl('agent.example:50051')).toBe('https://agent.example:50051');
    expect(grpcInterfaceUrl('localhost:50051')).toBe('http://localhost:50051');
    expect(grpcInterfaceUrl('https://agent.example:8443/ignored')).toBe('https://agent.example:8443');
    expect(grpcInterfaceUrl('user@agent.example:1')).toBe('user@agent.example:1');
  });
});

describe('what a hostile gRPC agent can send', () => {
  const task = (fields: Parameters<typeof create<typeof TaskSchema>>[1]) => ({
    bytes: toBinary(
      SendMessageResponseSchema,
      create(SendMessageResponseSchema, { payload: { case: 'task', value: create(TaskSchema, fields) } }),
    ),
  });
  const send = (client: ReturnType<typeof clientOf>) => client.sendMessage({ message: MESSAGE });

  it('a message over the byte cap', async () => {
    const server = await hostile(() =>
      task({ id: 't', status: { state: TaskState.WORKING }, metadata: { pad: 'x'.repeat(4096) } }),
    );
    expect(await failure(send(clientOf(server.address, { limits: { maxBodyBytes: 1024 } })))).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      retryable: false,
    });
  });

  it('a Struct nested past the depth cap, an unknown enum state, an id over 256 characters', async () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 80; i++) deep = { a: deep };
    const cases = [
      task({ id: 't', status: { state: TaskState.WORKING }, metadata: deep as never }),
      task({ id: 't', status: { state: 42 as TaskState } }),
      task({ id: 'x'.repeat(300), status: { state: TaskState.WORKING } }),
      { bytes: Buffer.from('not protobuf at all \xff\xff\xff') },
    ];
    for (const reply of cases) {
      const server = await hostile(() => reply);
      expect(await failure(send(clientOf(server.address)))).toMatchObject({
        code: 'INVALID_AGENT_RESPONSE',
        retryable: false,
      });
    }
  });

  it('statuses map into the error table with the HTTP retry rules', async () => {
    const retryInfo = new Metadata();
    const bin = create(StatusSchema, {
      code: status.RESOURCE_EXHAUSTED,
      details: [anyPack(RetryInfoSchema, create(RetryInfoSchema, { retryDelay: durationFromMs(3_600_000) }))],
    });
    retryInfo.set('grpc-status-details-bin', Buffer.from(toBinary(StatusSchema, bin)));
    const expected: Array<[GrpcReply, Record<string, unknown>]> = [
      [{ status: { code: status.UNAUTHENTICATED, details: 'who?' } }, { code: 'UNAUTHENTICATED', retryable: false }],
      [{ status: { code: status.PERMISSION_DENIED, details: 'no' } }, { code: 'PERMISSION_DENIED', retryable: false }],
      [
        { status: { code: status.RESOURCE_EXHAUSTED, details: 'slow down', metadata: retryInfo } },
        { code: 'RATE_LIMITED', retryable: true, retryAfterMs: 300_000 },
      ],
      [{ status: { code: status.UNAVAILABLE, details: 'restarting' } }, { code: 'CONNECTION_FAILED', retryable: true }],
      [{ status: { code: status.INTERNAL, details: 'oops' } }, { code: 'AGENT_ERROR', retryable: true }],
      [{ status: { code: status.NOT_FOUND, details: 'what' } }, { code: 'AGENT_ERROR', retryable: false }],
      [
        { status: { code: status.UNIMPLEMENTED, details: 'no such method' } },
        { code: 'UNSUPPORTED_OPERATION', retryable: false },
      ],
    ];
    for (const [reply, outcome] of expected) {
      const server = await hostile(() => reply);
      expect(await failure(clientOf(server.address).getTask({ id: 't' }))).toMatchObject(outcome);
    }
  });

  it('silence ends at the deadline; a stream stalled mid-message at the idle timeout, its HTTP/2 stream reset', async () => {
    const silent = await hostile({ listener: 'silent' });
    const started = performance.now();
    expect(await failure(clientOf(silent.address, { timeoutMs: 500 }).getTask({ id: 't' }))).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    const stall = await hostile({ listener: 'stall' });
    const stream = clientOf(stall.address).subscribeToTask({ id: 't' }, { idleTimeoutMs: 300 });
    expect(await failure(stream.next())).toMatchObject({ code: 'STREAM_IDLE_TIMEOUT', retryable: true });
    await expect.poll(() => stall.cancelledStreams()).toBe(1);
  });
});
