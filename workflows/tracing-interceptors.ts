/**
 * The workflow side of tracing: Temporal's official OpenTelemetry workflow interceptors
 * (`@temporalio/interceptors-opentelemetry`), on two conditions that keep replays exact.
 *
 * - A workflow is traced when it was started with a trace context (the `_tracer-data` header a
 *   tracing client or parent workflow sends). The decision is read from history, so a run
 *   replays the same way on every worker, tracing or not, and histories recorded without
 *   tracing replay untouched: without the header every call passes straight through.
 * - Span ids are drawn from a named random stream of their own, never from the workflow's
 *   `Math.random()`/`uuid4()` sequence, so tracing does not change the ids the workflow makes
 *   (message ids, context ids) and cannot change what it sends.
 *
 * Queries and update validators are not traced (a `watch` asks many times a second). This module
 * is bundled with the workflows (plugin.ts, platform/workflow-bundle.ts); a worker without
 * tracing hands the spans to a sink that drops them.
 */
import type * as Official from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import {
  getRandomStream,
  workflowRandom,
  type Next,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { markTracedRun } from './traced-run.js';

/** The header the official interceptors carry the trace context in. */
const TRACE_HEADER = '_tracer-data';
/** The random stream span ids come from. */
const SPAN_ID_STREAM = 'a2a-temporal/tracing';

type Fn<T> = () => T;

interface Officials {
  inbound: Official.OpenTelemetryInboundInterceptor;
  outbound: Official.OpenTelemetryOutboundInterceptor;
  internals: Official.OpenTelemetryInternalsInterceptor;
}

/**
 * The official interceptors, loaded on a workflow's first traced call, for that workflow alone.
 * With the reusable V8 context a module the workflows do not share is evaluated again for each
 * workflow and held while it is cached: OpenTelemetry's libraries, the largest part of the
 * bundle, and the tracer provider the interceptors build would cost an untraced workflow more
 * than everything else it holds. They cannot be shared either: `@opentelemetry/api` keeps the
 * registered tracer provider in its module state, which the worker would freeze.
 */
function loadOfficials(): Officials {
  // A synchronous require the bundler resolves statically: a dynamic import() would make the first traced call wait a microtask.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const official = require('@temporalio/interceptors-opentelemetry/lib/workflow/index.js') as typeof Official;
  return {
    inbound: new official.OpenTelemetryInboundInterceptor(),
    outbound: new official.OpenTelemetryOutboundInterceptor(),
    internals: new official.OpenTelemetryInternalsInterceptor(),
  };
}

export const interceptors = (): WorkflowInterceptors => {
  let traced = false;
  let spanIds: ReturnType<typeof getRandomStream> | undefined;
  let loaded: Officials | undefined;
  const officials = (): Officials => (loaded ??= loadOfficials());

  /** Runs the official interceptor with span ids from their own stream, and `next` with the workflow's. */
  function official<I, R>(call: (input: I, next: (i: I) => R) => R, input: I, next: (i: I) => R): R {
    spanIds ??= getRandomStream(SPAN_ID_STREAM);
    return spanIds.with(() => call(input, (i) => workflowRandom.with((() => next(i)) as Fn<R>)));
  }
  const via =
    <I, R>(call: (input: I, next: (i: I) => R) => R) =>
    (input: I, next: (i: I) => R): R =>
      traced ? official(call, input, next) : next(input);

  const inboundCalls: WorkflowInboundCallsInterceptor = {
    execute(input, next) {
      traced = input.headers[TRACE_HEADER] !== undefined;
      if (traced) markTracedRun();
      return via((i: typeof input, n: typeof next) => officials().inbound.execute(i, n))(input, next);
    },
    handleSignal: via((i, n) => officials().inbound.handleSignal(i, n)),
    handleUpdate: via((i, n) => officials().inbound.handleUpdate(i, n)),
  };
  const outboundCalls: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: via((i, n) => officials().outbound.scheduleActivity(i, n)),
    scheduleLocalActivity: via((i, n) => officials().outbound.scheduleLocalActivity(i, n)),
    startChildWorkflowExecution: via((i, n) => officials().outbound.startChildWorkflowExecution(i, n)),
    continueAsNew: via((i, n) => officials().outbound.continueAsNew(i, n)),
    signalWorkflow: via((i, n) => officials().outbound.signalWorkflow(i, n)),
    getLogAttributes: (input, next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>) =>
      traced ? officials().outbound.getLogAttributes(input, next) : next(input),
  };
  const internalCalls: WorkflowInternalsInterceptor = {
    dispose(input, next) {
      if (traced) void officials().internals.dispose(input, next);
      else next(input);
    },
  };
  return { inbound: [inboundCalls], outbound: [outboundCalls], internals: [internalCalls] };
};
