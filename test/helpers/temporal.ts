/** Connects test files to the run's one dev server and builds workers on unique task queues. */
import { randomUUID } from 'node:crypto';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { afterAll, inject } from 'vitest';

let runtimeInstalled = false;

/**
 * A query that names no deadline of its own gets this one. The production server can lose a
 * query it buffered for a workflow task that a racing update's speculative task replaced (the
 * worker's answer comes back "Workflow task not found"); the query then waits out the server's
 * own limit, as long as a `waitFor` (30 s). With this deadline the probe fails and is asked again.
 */
const QUERY_DEADLINE_MS = 10_000;

const queryDeadline: Interceptor = (options, nextCall) =>
  new InterceptingCall(
    nextCall(
      options.deadline === undefined && options.method_definition.path.endsWith('/QueryWorkflow')
        ? { ...options, deadline: Date.now() + QUERY_DEADLINE_MS }
        : options,
    ),
  );

/** The shared dev server (see global-setup.ts). */
export function temporalServer() {
  return inject('temporal');
}

/** A task queue no other test uses. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-${randomUUID()}`;
}

/**
 * Opens a client connection and a worker connection for this test file; both close after it.
 * Call at module level of a test file.
 */
export function useTemporal() {
  const server = temporalServer();
  const state = {} as { client: Client; connection: Connection; nativeConnection: NativeConnection };
  let ready: Promise<void> | undefined;
  const open = () =>
    (ready ??= (async () => {
      if (!runtimeInstalled) {
        // Keep the Rust core quiet: its warnings are not test output.
        Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
        runtimeInstalled = true;
      }
      state.connection = await Connection.connect({
        address: server.address,
        interceptors: [queryDeadline, makeGrpcRetryInterceptor(defaultGrpcRetryOptions())],
      });
      state.client = new Client({ connection: state.connection, namespace: server.namespace });
      state.nativeConnection = await NativeConnection.connect({ address: server.address });
    })());
  afterAll(async () => {
    if (!ready) return;
    await ready;
    await state.nativeConnection.close();
    await state.connection.close();
  });
  return {
    server,
    /** Resolves the connections (lazily, once). */
    async client(): Promise<Client> {
      await open();
      return state.client;
    },
    /** A worker on the run's pre-built workflow bundle; run it with `worker.runUntil(...)`. */
    async worker(
      options: Omit<WorkerOptions, 'connection' | 'workflowBundle' | 'workflowsPath' | 'namespace'>,
    ): Promise<Worker> {
      await open();
      return Worker.create({
        connection: state.nativeConnection,
        namespace: server.namespace,
        workflowBundle: { codePath: server.workflowBundlePath },
        ...options,
      });
    },
  };
}
