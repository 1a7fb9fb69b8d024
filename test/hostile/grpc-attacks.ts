/**
 * The hostile agent's attacks over gRPC: its card lists only a gRPC interface (a raw grpc-js
 * server, see ./hostile-grpc.ts), which its agents-file entry allows. Each ends in a typed failure
 * within seconds, run by test/integration/hostile/grpc-attacks.test.ts on the same rig as the HTTP
 * attacks (a worker whose unary calls time out after {@link GRPC_RIG_REQUEST_TIMEOUT_MS}, so an
 * agent that never answers is found unreachable in seconds, not minutes).
 */
import { create, toBinary, type JsonObject } from '@bufbuild/protobuf';
import { status } from '@grpc/grpc-js';
import {
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
  type Task,
} from '../../a2a/grpc/gen/a2a_pb.js';
import type { HostileAttack } from './attacks.js';
import type { AgentControl } from './hostile-agent.js';
import { a2aStatus, encode, type GrpcCall, type GrpcReply } from './hostile-grpc.js';

/** The rig's A2A_REQUEST_TIMEOUT_MS for these attacks. */
export const GRPC_RIG_REQUEST_TIMEOUT_MS = 3_000;

const MiB = 1024 * 1024;

/** A SendMessage answered with `task` (ProtoJSON), no task created at the agent. */
function sendAnswers(task: (call: GrpcCall) => unknown): (call: GrpcCall) => GrpcReply | undefined {
  return (call) => (call.operation === 'SendMessage' ? { message: { task: task(call) } } : undefined);
}

/** A SendMessage answered with `task`, a message built directly (values ProtoJSON cannot carry), no task created at the agent. */
function sendsTaskMessage(task: () => Task): (call: GrpcCall) => GrpcReply | undefined {
  return (call) =>
    call.operation === 'SendMessage'
      ? {
          bytes: toBinary(
            SendMessageResponseSchema,
            create(SendMessageResponseSchema, { payload: { case: 'task', value: task() } }),
          ),
        }
      : undefined;
}

/** `{"a":{"a":…}}` `depth` levels deep (put into a message directly: fromJson would stop at 100). */
function nested(depth: number): JsonObject {
  let value: JsonObject = { a: 'bottom' };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

/** Task created for the message, WORKING, then artifact chunks appended without end until the client goes away. */
function endlessStream(call: GrpcCall, agent: AgentControl): GrpcReply | undefined {
  if (call.operation !== 'SendStreamingMessage') return undefined;
  const task = agent.createTask((call.request.message ?? {}) as Record<string, unknown>);
  agent.apply(task.id, [{ state: 'TASK_STATE_WORKING' }]);
  return {
    stream(stream) {
      let gone = false;
      stream.on('cancelled', () => {
        gone = true;
        agent.observe('stream-cancelled', true);
      });
      stream.write(encode(StreamResponseSchema, { task: structuredClone(task) }));
      const chunk = encode(StreamResponseSchema, {
        artifactUpdate: {
          taskId: task.id,
          contextId: task.contextId,
          artifact: { artifactId: 'report', parts: [{ text: 'x'.repeat(1024) }] },
          append: true,
        },
      });
      let sent = 0;
      const pump = () => {
        while (!gone && sent < 1_000_000) {
          sent += 1;
          if (!stream.write(chunk)) return void stream.once('drain', pump);
        }
      };
      pump();
    },
  };
}

export const GRPC_ATTACKS: HostileAttack[] = [
  {
    name: 'grpc-endless-stream',
    description:
      'Answers SendStreamingMessage over gRPC with a task, then appends 1 KiB chunks to one artifact forever.',
    expectedCode: 'A2A_RESPONSE_TOO_LARGE',
    maxSeconds: 15,
    mode: 'stream',
    observations: { 'stream-cancelled': true },
    agent: { streaming: true, grpc: { intercept: endlessStream } },
  },
  {
    name: 'grpc-message-over-cap',
    description: 'Answers SendMessage over gRPC with one 9 MiB message (the cap is 8 MiB).',
    expectedCode: 'A2A_RESPONSE_TOO_LARGE',
    maxSeconds: 15,
    agent: {
      grpc: {
        intercept: sendAnswers(() => ({
          id: 'big',
          contextId: 'c',
          status: { state: 'TASK_STATE_WORKING' },
          artifacts: [{ artifactId: 'a', parts: [{ text: 'x'.repeat(9 * MiB) }] }],
        })),
      },
    },
  },
  {
    name: 'grpc-deep-struct',
    description: 'Answers SendMessage over gRPC with a task whose metadata Struct nests 300 levels deep.',
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    agent: {
      grpc: {
        intercept: sendsTaskMessage(() =>
          create(TaskSchema, {
            id: 'deep',
            contextId: 'c',
            status: { state: TaskState.WORKING },
            metadata: nested(300),
          }),
        ),
      },
    },
  },
  {
    name: 'grpc-unknown-enum-state',
    description: 'Answers SendMessage over gRPC with a task in state 99 (no TaskState has that number).',
    expectedCode: 'A2A_INVALID_AGENT_RESPONSE',
    maxSeconds: 15,
    agent: {
      grpc: {
        // An open enum takes any number on the wire; A2A defines 0–8.
        intercept: sendsTaskMessage(() =>
          create(TaskSchema, { id: 't', contextId: 'c', status: { state: 99 as TaskState } }),
        ),
      },
    },
  },
  {
    name: 'grpc-huge-status-details',
    description:
      'Fails SendMessage over gRPC with a 30,000-character status message and 16 ErrorInfo details of 1 KB each.',
    expectedCode: 'A2A_UNSUPPORTED_OPERATION',
    maxSeconds: 15,
    agent: {
      grpc: {
        intercept: (call) =>
          call.operation === 'SendMessage'
            ? { status: a2aStatus(status.FAILED_PRECONDITION, 'UNSUPPORTED_OPERATION', 'y'.repeat(30_000), 16, 1000) }
            : undefined,
      },
    },
  },
  {
    name: 'grpc-echo-credential',
    description:
      "Fails SendMessage over gRPC with INVALID_ARGUMENT whose message is our call's metadata, token included.",
    expectedCode: 'A2A_INVALID_PARAMS',
    maxSeconds: 15,
    agent: {
      grpc: {
        intercept: (call) =>
          call.operation === 'SendMessage'
            ? {
                status: { code: status.INVALID_ARGUMENT, details: `bad request from ${JSON.stringify(call.metadata)}` },
              }
            : undefined,
      },
    },
  },
  {
    name: 'grpc-stall-mid-message',
    description: 'Answers every gRPC call with response headers and half a message, then nothing.',
    expectedCode: 'A2A_AGENT_UNREACHABLE',
    maxSeconds: 15,
    tracking: { unreachableTimeout: '2 seconds' },
    agent: { grpc: { listener: 'stall' } },
  },
  {
    name: 'grpc-handshake-never-answered',
    description: 'Accepts the TCP connection of its gRPC interface and never sends a byte (no HTTP/2 preface).',
    expectedCode: 'A2A_AGENT_UNREACHABLE',
    maxSeconds: 15,
    tracking: { unreachableTimeout: '2 seconds' },
    agent: { grpc: { listener: 'silent' } },
  },
];
