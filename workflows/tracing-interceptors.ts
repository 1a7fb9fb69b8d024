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
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import {
  getRandomStream,
  workflowRandom,
  type Next,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/** The header the official interceptors carry the trace context in. */
const TRACE_HEADER = '_tracer-data';
/** The random stream span ids come from. */
const SPAN_ID_STREAM = 'a2a-temporal/tracing';

type Fn<T> = () => T;

export const interceptors = (): WorkflowInterceptors => {
  let traced = false;
  let spanIds: ReturnType<typeof getRandomStream> | undefined;
  const inbound = new OpenTelemetryInboundInterceptor();
  const outbound = new OpenTelemetryOutboundInterceptor();
  const internals = new OpenTelemetryInternalsInterceptor();

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
      return via(inbound.execute.bind(inbound))(input, next);
    },
    handleSignal: via(inbound.handleSignal.bind(inbound)),
    handleUpdate: via(inbound.handleUpdate.bind(inbound)),
  };
  const outboundCalls: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: via(outbound.scheduleActivity.bind(outbound)),
    scheduleLocalActivity: via(outbound.scheduleLocalActivity.bind(outbound)),
    startChildWorkflowExecution: via(outbound.startChildWorkflowExecution.bind(outbound)),
    continueAsNew: via(outbound.continueAsNew.bind(outbound)),
    signalWorkflow: via(outbound.signalWorkflow.bind(outbound)),
    getLogAttributes: (input, next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>) =>
      traced ? outbound.getLogAttributes(input, next) : next(input),
  };
  const internalCalls: WorkflowInternalsInterceptor = {
    dispose(input, next) {
      if (traced) void internals.dispose(input, next);
      else next(input);
    },
  };
  return { inbound: [inboundCalls], outbound: [outboundCalls], internals: [internalCalls] };
};
