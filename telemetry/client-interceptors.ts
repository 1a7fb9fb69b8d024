/**
 * The Temporal client's part of tracing: Temporal's official client interceptor, which starts a
 * span for each workflow start, signal, update and query and sends its context in the headers
 * (so `release start` is the root of a release's trace). None when this process does not trace.
 */
import type { ClientOptions } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { activeTracing } from './tracing.js';

/** The interceptors that make a Temporal client start and join traces, when tracing is on (none when it is off). */
export function tracingClientOptions(): Pick<ClientOptions, 'interceptors'> {
  return activeTracing() ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {};
}
