/**
 * The gRPC side of a hostile agent: a raw `@grpc/grpc-js` server with generic handlers (bytes in,
 * bytes out) for every method of `lf.a2a.v1.A2AService`, so an attack can send anything a
 * stranger could: a message over the cap, an enum value A2A does not have, a `Struct` nested
 * without end, a status with huge details, a stream that never ends. What an attack does not
 * intercept is answered honestly, by the hostile agent's own HTTP+JSON logic (same tasks),
 * converted with the generated code. Two listeners are not gRPC servers at all: `silent` accepts
 * connections and never says a word (no HTTP/2 preface), `stall` answers a stream's headers and
 * half of a message, then nothing.
 */
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createH2Server, constants as h2, type Http2Server, type Http2Session } from 'node:http2';
import { create, fromBinary, fromJson, toBinary, toJson, type DescMessage, type JsonValue } from '@bufbuild/protobuf';
import { anyPack } from '@bufbuild/protobuf/wkt';
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type MethodDefinition,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { A2AService } from '../../a2a/grpc/gen/a2a_pb.js';
import { ErrorInfoSchema } from '../../a2a/grpc/gen/google/rpc/error_details_pb.js';
import { StatusSchema } from '../../a2a/grpc/gen/google/rpc/status_pb.js';
import type { AgentControl, Call, Operation, Reply } from './hostile-agent.js';

/** What a call carried: the method, the request as ProtoJSON, and the metadata (credentials included). */
export interface GrpcCall {
  operation: Operation;
  request: Record<string, unknown>;
  metadata: Record<string, string>;
}

/** An answer: a message (ProtoJSON, or raw bytes), a status, or full control of a server stream. */
export type GrpcReply =
  | { message: unknown }
  | { bytes: Uint8Array }
  | { status: { code: number; details: string; metadata?: Metadata } }
  | { stream(call: ServerWritableStream<Buffer, Uint8Array>): void };

export interface GrpcScript {
  /** `grpc` (default): a gRPC server; `silent`: never answers the handshake; `stall`: a stream stalls mid-message. */
  listener?: 'grpc' | 'silent' | 'stall';
  intercept?(call: GrpcCall, agent: AgentControl): GrpcReply | undefined;
}

export interface HostileGrpc {
  /** `127.0.0.1:port`, as the card names it. */
  address: string;
  calls: GrpcCall[];
  /** Streams the client cancelled (an RST_STREAM reached us). */
  cancelledStreams(): number;
  close(): Promise<void>;
}

const OPERATIONS: Record<string, Operation> = {
  sendMessage: 'SendMessage',
  sendStreamingMessage: 'SendStreamingMessage',
  getTask: 'GetTask',
  listTasks: 'ListTasks',
  cancelTask: 'CancelTask',
  subscribeToTask: 'SubscribeToTask',
  createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
  getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
  listTaskPushNotificationConfigs: 'ListTaskPushNotificationConfigs',
  deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
};

/** The status of an HTTP error of the honest agent, in gRPC terms (A2A 1.0.1 §5.4). */
const GRPC_STATUS_OF_HTTP: Record<number, number> = { 404: status.NOT_FOUND, 400: status.FAILED_PRECONDITION };

/** A status carrying an A2A ErrorInfo (reason, domain) in `grpc-status-details-bin`. */
export function a2aStatus(code: number, reason: string, details: string, infos = 1, metadataBytes = 0) {
  const info = create(ErrorInfoSchema, {
    reason,
    domain: 'a2a-protocol.org',
    metadata: metadataBytes ? { padding: 'x'.repeat(metadataBytes) } : {},
  });
  const bin = toBinary(
    StatusSchema,
    create(StatusSchema, {
      code,
      message: details,
      details: Array.from({ length: infos }, () => anyPack(ErrorInfoSchema, info)),
    }),
  );
  const metadata = new Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(bin));
  return { code, details, metadata };
}

/** Encodes a ProtoJSON value as the message `schema` describes. */
export function encode(schema: DescMessage, json: unknown): Uint8Array {
  return toBinary(schema, fromJson(schema, json as JsonValue, { ignoreUnknownFields: true }));
}

export async function startHostileGrpc(script: GrpcScript, agent: AgentControl): Promise<HostileGrpc> {
  if (script.listener === 'silent') return silentListener();
  if (script.listener === 'stall') return stallingListener();
  const calls: GrpcCall[] = [];
  let cancelled = 0;
  const definition: Record<string, MethodDefinition<Buffer, Uint8Array>> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [local, operation] of Object.entries(OPERATIONS)) {
    const method = A2AService.method[local as keyof typeof A2AService.method];
    const streaming = method.methodKind === 'server_streaming';
    definition[local] = {
      path: `/${A2AService.typeName}/${method.name}`,
      requestStream: false,
      responseStream: streaming,
      requestSerialize: (value: Buffer) => value,
      requestDeserialize: (bytes: Buffer) => bytes,
      responseSerialize: (value: Uint8Array) => Buffer.from(value),
      responseDeserialize: (bytes: Buffer) => bytes,
    };
    const understand = (raw: Buffer, metadata: Metadata): GrpcCall => {
      const request = toJson(method.input, fromBinary(method.input, raw)) as Record<string, unknown>;
      const flat = Object.fromEntries(Object.entries(metadata.getMap()).map(([k, v]) => [k, String(v)]));
      const call = { operation, request, metadata: flat };
      calls.push(call);
      return call;
    };
    const reply = (call: GrpcCall): GrpcReply => script.intercept?.(call, agent) ?? honest(call, agent, method.output);
    implementation[local] = streaming
      ? (stream: ServerWritableStream<Buffer, Uint8Array>) => {
          stream.on('cancelled', () => (cancelled += 1));
          const answer = reply(understand(stream.request, stream.metadata));
          if ('stream' in answer) return answer.stream(stream);
          if ('status' in answer) return stream.emit('error', answer.status);
          stream.write('bytes' in answer ? answer.bytes : encode(method.output, answer.message));
          stream.end();
        }
      : (unary: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) => {
          const answer = reply(understand(unary.request, unary.metadata));
          if ('status' in answer) return callback(answer.status);
          if ('stream' in answer) return callback({ code: status.INTERNAL, details: 'not a stream' }, null);
          callback(null, 'bytes' in answer ? answer.bytes : encode(method.output, answer.message));
        };
  }
  const server = new Server({ 'grpc.max_send_message_length': -1 });
  server.addService(definition as ServiceDefinition, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    calls,
    cancelledStreams: () => cancelled,
    close: async () => server.forceShutdown(),
  };
}

/** What the honest HTTP+JSON agent answers, as a gRPC reply. */
function honest(call: GrpcCall, agent: AgentControl, output: DescMessage): GrpcReply {
  const request = call.request;
  const taskId =
    typeof request.id === 'string' ? request.id : typeof request.taskId === 'string' ? request.taskId : undefined;
  const asHttp: Call = {
    method: 'POST',
    url: '/',
    headers: {},
    body: JSON.stringify(request),
    binding: 'HTTP+JSON',
    operation: call.operation,
    params: request,
    ...(taskId ? { taskId } : {}),
  };
  if (call.operation === 'SendStreamingMessage' || call.operation === 'SubscribeToTask')
    return {
      status: { code: status.UNIMPLEMENTED, details: 'this hostile agent streams only when an attack says so' },
    };
  const answer: Reply = agent.honest(asHttp);
  if (!('status' in answer)) return { status: { code: status.INTERNAL, details: 'no honest answer' } };
  const body = String(answer.body);
  if (answer.status >= 200 && answer.status < 300)
    return { message: body.trim() ? JSON.parse(body) : toJson(output, create(output)) };
  const error = (JSON.parse(body) as { error?: { message?: string; details?: Array<{ reason?: string }> } }).error;
  const code = GRPC_STATUS_OF_HTTP[answer.status] ?? status.INTERNAL;
  return { status: a2aStatus(code, error?.details?.[0]?.reason ?? 'INTERNAL', error?.message ?? '') };
}

/** Accepts TCP connections and never sends a byte: no HTTP/2 preface, no settings, no answer. */
async function silentListener(): Promise<HostileGrpc> {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // read what the client sends, answer nothing
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: [],
    cancelledStreams: () => 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP/2 server that answers every call with gRPC response headers and the first 5 bytes of a
 * length-prefixed message announcing 1 KiB, then nothing: the message never completes.
 */
async function stallingListener(): Promise<HostileGrpc> {
  let cancelled = 0;
  const server: Http2Server = createH2Server();
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.on('close', () => {
      if (stream.rstCode === h2.NGHTTP2_CANCEL) cancelled += 1;
    });
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(1024, 1);
    stream.write(Buffer.concat([prefix, Buffer.from('half a message')]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: [],
    cancelledStreams: () => cancelled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}
