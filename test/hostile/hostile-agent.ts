/**
 * An A2A agent of our own, built on raw `node:http` so it can say anything a stranger could:
 * well-formed A2A 1.0 by default (a card, both bindings — JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON
 * at `/a2a/rest` — tasks that follow a script of turns, push configs that it delivers to), and
 * whatever an attack's `intercept` answers instead. Every request is recorded, headers included,
 * so a test can see what reached the agent (and what our worker sent it).
 *
 * Not an SDK agent on purpose: the official SDK would refuse to send most of what attacks need.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskState } from '../../a2a/index.js';
import { startHostileGrpc, type GrpcScript, type HostileGrpc } from './hostile-grpc.js';

export type Binding = 'HTTP+JSON' | 'JSONRPC' | 'GRPC';

export type Operation =
  | 'GetAgentCard'
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig'
  | 'Unknown';

/** One request as the agent received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  binding?: Binding;
  operation: Operation;
}

/** A request with what the agent understood of it. */
export interface Call extends ReceivedRequest {
  /** JSON-RPC `params`, or the HTTP+JSON body; `{}` when there is none or it is not JSON. */
  params: Record<string, unknown>;
  /** The task the call is about (REST path, or `params.id` / `params.taskId`). */
  taskId?: string;
  /** JSON-RPC request id. */
  rpcId?: unknown;
}

/** Anything to send back: a status, headers and bytes, or full control of the response. */
export type Reply =
  { status: number; headers?: Record<string, string>; body: string | Buffer } | { write(res: ServerResponse): void };

/** What a task does during one turn (turn 0 follows the first message, turn n the n-th answer). */
export type TaskEvent =
  | { state: TaskState; text?: string }
  | { artifact: { artifactId: string; name?: string; text: string }; append?: boolean; lastChunk?: boolean };

export interface AgentScript {
  /** The one interface the card lists. @default 'HTTP+JSON' */
  binding?: Binding;
  streaming?: boolean;
  pushNotifications?: boolean;
  /** Replaces the card. */
  card?(agent: AgentControl): unknown;
  /** The task's script, one list of events per turn. @default [[working, completed]] */
  turns?: TaskEvent[][];
  /** Answers a request instead of the honest agent; `undefined` lets the honest agent answer. */
  intercept?(call: Call, agent: AgentControl): Reply | undefined | Promise<Reply | undefined>;
  /** Serve the A2A calls over gRPC (./hostile-grpc.ts) on a port of its own: the card lists only that interface. */
  grpc?: GrpcScript;
}

/** A2A 1.0 Task as this agent keeps it (ProtoJSON, what goes on the wire). */
export interface WireTask {
  id: string;
  contextId: string;
  status: { state: TaskState; message?: WireMessage; timestamp: string };
  artifacts?: Array<{ artifactId: string; name?: string; parts: Array<{ text: string }> }>;
}

interface WireMessage {
  messageId: string;
  role: 'ROLE_AGENT';
  taskId: string;
  contextId: string;
  parts: Array<{ text: string }>;
}

export interface PushConfig {
  id: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

/** What an attack's `intercept` and `card` can use. */
export interface AgentControl {
  baseUrl: string;
  /** The URL of the interface the default card lists. */
  interfaceUrl: string;
  binding: Binding;
  tasks: Map<string, WireTask>;
  /** Push configs by task id. */
  pushConfigs: Map<string, PushConfig>;
  /** Creates a task for a message (as the honest agent would), without running any turn. */
  createTask(message: Record<string, unknown>): WireTask;
  /** Applies events to a task (state changes, artifacts), as the honest agent does per turn. */
  apply(taskId: string, events: TaskEvent[]): void;
  /** POSTs `body` to the push config of `taskId` with its credential; resolves to the HTTP status. */
  deliver(taskId: string, body: unknown): Promise<number>;
  /** Sends a raw HTTP request (e.g. to the receiver), resolving to status and body. */
  fetchRaw(
    url: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<{
    status: number;
    body: string;
  }>;
  /** Records something the test should check (what the receiver answered, say). */
  observe(key: string, value: unknown): void;
  /** What the honest agent answers to `call` (its side effects included). */
  honest(call: Call): Reply;
  /** JSON-RPC / HTTP+JSON answers, for intercepts that answer honestly in their own way. */
  ok(call: Call, result: unknown): Reply;
  error(call: Call, error: { rpcCode: number; httpStatus: number; reason: string; message: string }): Reply;
}

export interface HostileAgent {
  baseUrl: string;
  /** The gRPC listener, when the script has one (its origin, `http://127.0.0.1:port`, is what the agents file allows). */
  grpc?: HostileGrpc & { origin: string };
  cardUrl: string;
  requests: ReceivedRequest[];
  /** Ids of the tasks a CancelTask was received for. */
  canceled: string[];
  tasks: Map<string, WireTask>;
  observations: Map<string, unknown>;
  /** Tasks the agent still runs (neither terminal nor canceled). */
  openTasks(): WireTask[];
  close(): Promise<void>;
}

const TERMINAL: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

const DEFAULT_TURNS: TaskEvent[][] = [
  [{ state: 'TASK_STATE_WORKING' }, { state: 'TASK_STATE_COMPLETED', text: 'Done.' }],
];

const NOT_FOUND = { rpcCode: -32001, httpStatus: 404, reason: 'TASK_NOT_FOUND', message: 'Task not found' };
const NOT_CANCELABLE = {
  rpcCode: -32002,
  httpStatus: 400,
  reason: 'TASK_NOT_CANCELABLE',
  message: 'Task cannot be canceled',
};

/** Starts a hostile agent on 127.0.0.1 (a free port), scripted by an attack (see attacks.ts). */
export async function startHostileAgent(options: { attack: { agent: AgentScript } }): Promise<HostileAgent> {
  const script = options.attack.agent;
  const binding = script.grpc ? 'GRPC' : (script.binding ?? 'HTTP+JSON');
  const requests: ReceivedRequest[] = [];
  const canceled: string[] = [];
  const tasks = new Map<string, WireTask>();
  const turnOf = new Map<string, number>();
  const observations = new Map<string, unknown>();
  let counter = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 4 * 1024 * 1024) chunks.push(chunk); // ours are small; keep a bound anyway
    });
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        operation: 'Unknown',
      };
      const call = understand(received);
      requests.push({ ...received, binding: call.binding, operation: call.operation });
      void answer(call).then(
        (reply) => send(res, reply),
        (err: unknown) => send(res, { status: 500, body: `hostile agent bug: ${String(err)}` }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let interfaceUrl = `${baseUrl}${binding === 'JSONRPC' ? '/a2a/jsonrpc' : '/a2a/rest'}`;

  const now = () => new Date().toISOString();
  const control: AgentControl = {
    baseUrl,
    interfaceUrl,
    binding,
    tasks,
    pushConfigs: new Map(),
    createTask(message) {
      counter += 1;
      const task: WireTask = {
        id: `task-${counter}`,
        contextId: typeof message.contextId === 'string' ? message.contextId : `ctx-${counter}`,
        status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() },
      };
      tasks.set(task.id, task);
      return task;
    },
    apply(taskId, events) {
      const task = tasks.get(taskId);
      if (!task) return;
      for (const event of events) {
        if ('state' in event) {
          counter += 1;
          const message: WireMessage | undefined =
            event.text === undefined
              ? undefined
              : {
                  messageId: `msg-${counter}`,
                  role: 'ROLE_AGENT',
                  taskId,
                  contextId: task.contextId,
                  parts: [{ text: event.text }],
                };
          task.status = { state: event.state, ...(message ? { message } : {}), timestamp: now() };
        } else {
          const artifacts = (task.artifacts ??= []);
          const known = artifacts.find((a) => a.artifactId === event.artifact.artifactId);
          const part = { text: event.artifact.text };
          if (known && event.append) known.parts.push(part);
          else if (known) Object.assign(known, { name: event.artifact.name, parts: [part] });
          else artifacts.push({ artifactId: event.artifact.artifactId, name: event.artifact.name, parts: [part] });
        }
      }
    },
    async deliver(taskId, body) {
      const config = control.pushConfigs.get(taskId);
      if (!config) throw new Error(`hostile agent: no push config for ${taskId}`);
      const credentials = config.authentication?.credentials ?? config.token ?? '';
      const { status } = await control.fetchRaw(config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/a2a+json', authorization: `Bearer ${credentials}` },
        body: JSON.stringify(body),
      });
      return status;
    },
    fetchRaw(url, init = {}) {
      return new Promise((resolve, reject) => {
        const out = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        });
        out.on('error', reject);
        out.end(init.body);
      });
    },
    observe: (key, value) => observations.set(key, value),
    honest: (call) => honest(call),
    ok: (call, result) => ok(call, result),
    error: (call, error) => fail(call, error),
  };

  const grpc = script.grpc ? await startHostileGrpc(script.grpc, control) : undefined;
  if (grpc) control.interfaceUrl = interfaceUrl = grpc.address;

  async function answer(call: Call): Promise<Reply> {
    const intercepted = await script.intercept?.(call, control);
    if (intercepted) return intercepted;
    return honest(call);
  }

  function honest(call: Call): Reply {
    switch (call.operation) {
      case 'GetAgentCard':
        return json(200, script.card ? script.card(control) : defaultCard(control, script));
      case 'SendMessage':
      case 'SendStreamingMessage': {
        const message = (call.params.message ?? {}) as Record<string, unknown>;
        const followUp = typeof message.taskId === 'string' ? tasks.get(message.taskId) : undefined;
        if (typeof message.taskId === 'string' && !followUp) return fail(call, NOT_FOUND);
        const task = followUp ?? control.createTask(message);
        const turn = turnOf.get(task.id) ?? 0;
        turnOf.set(task.id, turn + 1);
        const events = (script.turns ?? DEFAULT_TURNS)[turn] ?? [];
        if (call.operation === 'SendMessage') {
          control.apply(task.id, events);
          return ok(call, { task: snapshot(task) });
        }
        const frames: unknown[] = [{ task: snapshot(task) }];
        for (const event of events) {
          control.apply(task.id, [event]);
          frames.push(
            'state' in event
              ? { statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }
              : {
                  artifactUpdate: {
                    taskId: task.id,
                    contextId: task.contextId,
                    artifact: {
                      artifactId: event.artifact.artifactId,
                      name: event.artifact.name,
                      parts: [{ text: event.artifact.text }],
                    },
                    ...(event.append ? { append: true } : {}),
                    ...(event.lastChunk ? { lastChunk: true } : {}),
                  },
                },
          );
        }
        return sse(call, frames);
      }
      case 'GetTask': {
        const task = call.taskId ? tasks.get(call.taskId) : undefined;
        return task ? ok(call, snapshot(task)) : fail(call, NOT_FOUND);
      }
      case 'CancelTask': {
        const task = call.taskId ? tasks.get(call.taskId) : undefined;
        if (!task) return fail(call, NOT_FOUND);
        canceled.push(task.id);
        if (TERMINAL.has(task.status.state) && task.status.state !== 'TASK_STATE_CANCELED')
          return fail(call, NOT_CANCELABLE);
        control.apply(task.id, [{ state: 'TASK_STATE_CANCELED', text: 'Canceled by client' }]);
        return ok(call, snapshot(task));
      }
      case 'SubscribeToTask': {
        const task = call.taskId ? tasks.get(call.taskId) : undefined;
        return task ? sse(call, [{ task: snapshot(task) }]) : fail(call, NOT_FOUND);
      }
      case 'ListTasks':
        return ok(call, { tasks: [] });
      case 'CreateTaskPushNotificationConfig': {
        const config = { ...(call.params as unknown as PushConfig), taskId: call.taskId ?? '' };
        config.id ||= `cfg-${++counter}`;
        control.pushConfigs.set(config.taskId, config);
        return ok(call, config);
      }
      case 'GetTaskPushNotificationConfig': {
        const config = call.taskId ? control.pushConfigs.get(call.taskId) : undefined;
        return config ? ok(call, config) : fail(call, NOT_FOUND);
      }
      case 'ListTaskPushNotificationConfigs': {
        const config = call.taskId ? control.pushConfigs.get(call.taskId) : undefined;
        return ok(call, { configs: config ? [config] : [] });
      }
      case 'DeleteTaskPushNotificationConfig':
        if (call.taskId) control.pushConfigs.delete(call.taskId);
        return call.binding === 'JSONRPC' ? ok(call, null) : { status: 204, body: '' };
      case 'Unknown':
        return {
          status: 404,
          headers: { 'content-type': 'text/plain' },
          body: `no route for ${call.method} ${call.url}`,
        };
    }
  }

  return {
    baseUrl,
    cardUrl: `${baseUrl}/.well-known/agent-card.json`,
    requests,
    canceled,
    tasks,
    observations,
    openTasks: () => [...tasks.values()].filter((t) => !TERMINAL.has(t.status.state)),
    ...(grpc ? { grpc: { ...grpc, origin: `http://${grpc.address}` } } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        void grpc?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A valid 1.0 card listing one interface of the script's binding. */
export function defaultCard(agent: Pick<AgentControl, 'interfaceUrl' | 'binding'>, script: AgentScript = {}) {
  return {
    name: 'Hostile Agent',
    description: 'An agent we do not control',
    version: '6.6.6',
    supportedInterfaces: [{ url: agent.interfaceUrl, protocolBinding: agent.binding, protocolVersion: '1.0' }],
    capabilities: { streaming: script.streaming ?? false, pushNotifications: script.pushNotifications ?? false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'anything', name: 'Anything', description: 'Does what it likes', tags: ['hostile'] }],
  };
}

/** A copy of the task as it goes on the wire (never the live object: later turns must not change what was sent). */
function snapshot(task: WireTask): WireTask {
  return structuredClone(task);
}

/** What the request is, for both bindings. */
function understand(received: ReceivedRequest): Call {
  const { method, url } = received;
  const path = url.split('?', 1)[0]!;
  let parsed: unknown;
  try {
    parsed = received.body ? JSON.parse(received.body) : {};
  } catch {
    parsed = {};
  }
  const body = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  if (path === '/.well-known/agent-card.json') return { ...received, operation: 'GetAgentCard', params: {} };
  if (path === '/a2a/jsonrpc') {
    const params = (body.params && typeof body.params === 'object' ? body.params : {}) as Record<string, unknown>;
    const operation = (JSONRPC_METHODS.has(String(body.method)) ? body.method : 'Unknown') as Operation;
    const taskId =
      typeof params.taskId === 'string' ? params.taskId : typeof params.id === 'string' ? params.id : undefined;
    return { ...received, binding: 'JSONRPC', operation, params, rpcId: body.id, taskId };
  }
  if (!path.startsWith('/a2a/rest/')) return { ...received, operation: 'Unknown', params: body };
  const rest = path.slice('/a2a/rest'.length);
  const base = { ...received, binding: 'HTTP+JSON' as const, params: body };
  if (rest === '/message:send' && method === 'POST') return { ...base, operation: 'SendMessage' };
  if (rest === '/message:stream' && method === 'POST') return { ...base, operation: 'SendStreamingMessage' };
  if (rest === '/tasks' && method === 'GET') return { ...base, operation: 'ListTasks' };
  if (!rest.startsWith('/tasks/')) return { ...base, operation: 'Unknown' };
  const segments = rest.slice('/tasks/'.length).split('/').map(decodeSegment);
  const [first = '', second, configId] = segments;
  if (second === 'pushNotificationConfigs') {
    const taskId = first;
    if (configId !== undefined)
      return {
        ...base,
        taskId,
        operation: method === 'DELETE' ? 'DeleteTaskPushNotificationConfig' : 'GetTaskPushNotificationConfig',
      };
    return {
      ...base,
      taskId,
      operation: method === 'POST' ? 'CreateTaskPushNotificationConfig' : 'ListTaskPushNotificationConfigs',
    };
  }
  if (first.endsWith(':cancel')) return { ...base, taskId: first.slice(0, -':cancel'.length), operation: 'CancelTask' };
  if (first.endsWith(':subscribe'))
    return { ...base, taskId: first.slice(0, -':subscribe'.length), operation: 'SubscribeToTask' };
  if (method === 'GET' && segments.length === 1) return { ...base, taskId: first, operation: 'GetTask' };
  return { ...base, operation: 'Unknown' };
}

/** A path segment, decoded when it is valid percent-encoding (a request we did not send may not be). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const JSONRPC_METHODS: ReadonlySet<string> = new Set<Operation>([
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

function json(status: number, value: unknown): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

function ok(call: Call, result: unknown): Reply {
  return call.binding === 'JSONRPC' ? json(200, { jsonrpc: '2.0', id: call.rpcId ?? null, result }) : json(200, result);
}

function fail(call: Call, e: { rpcCode: number; httpStatus: number; reason: string; message: string }): Reply {
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: e.reason, domain: 'a2a-protocol.org' };
  return call.binding === 'JSONRPC'
    ? json(200, {
        jsonrpc: '2.0',
        id: call.rpcId ?? null,
        error: { code: e.rpcCode, message: e.message, data: [info] },
      })
    : json(e.httpStatus, {
        error: { code: e.httpStatus, status: 'FAILED_PRECONDITION', message: e.message, details: [info] },
      });
}

function sse(call: Call, frames: unknown[]): Reply {
  const wrap = (result: unknown) =>
    call.binding === 'JSONRPC' ? { jsonrpc: '2.0', id: call.rpcId ?? null, result } : result;
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    body: frames.map((f) => `data: ${JSON.stringify(wrap(f))}\n\n`).join(''),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if ('write' in reply) return reply.write(res);
  res.writeHead(reply.status, reply.headers ?? {});
  res.end(reply.body);
}
