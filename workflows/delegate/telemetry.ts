/**
 * What a delegation tells operators: its metrics (on the workflow's metric meter: emitted once,
 * never again when the workflow replays) and, in a traced run, a span for each wait for an
 * answer, from the agent's question to the answer (or the deadline). Neither issues a command,
 * and span ids come from their own random stream (see tracing-interceptors.ts), so neither
 * changes what the workflow does.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import { getRandomStream, metricMeter } from '@temporalio/workflow';
import { A2A_ATTR, A2A_METRIC, agentLabel, boundedLabel } from '../../contract/telemetry.js';
import { isTracedRun } from '../traced-run.js';

/** The delegation's counters and its rounds, labelled by agent (and failure code). */
export interface DelegationMetrics {
  started(): void;
  completed(inputRounds: number): void;
  failed(code: string, inputRounds: number): void;
}

export function delegationMetrics(agent: string): DelegationMetrics {
  const tags = { agent: agentLabel(agent) };
  const rounds = (n: number) =>
    metricMeter
      .createHistogram(A2A_METRIC.delegationRounds, 'int', '{round}', 'Input rounds per ended delegation, by agent')
      .record(n, tags);
  return {
    started(): void {
      metricMeter.createCounter(A2A_METRIC.delegationsStarted, '{delegation}', 'Delegations started').add(1, tags);
    },
    completed(inputRounds: number): void {
      metricMeter.createCounter(A2A_METRIC.delegationsCompleted, '{delegation}', 'Delegations completed').add(1, tags);
      rounds(inputRounds);
    },
    failed(code: string, inputRounds: number): void {
      metricMeter
        .createCounter(A2A_METRIC.delegationsFailed, '{delegation}', 'Delegations failed or canceled, by failure code')
        .add(1, { ...tags, code });
      rounds(inputRounds);
    },
  };
}

/** How a wait for an answer ended. */
export type InputOutcome = 'answered' | 'resumed-by-agent' | 'timeout' | 'canceled' | 'continued-as-new' | 'failed';

/** A wait for an answer being timed: `end` records it once. */
export interface InputWait {
  end(outcome: InputOutcome, by?: string): void;
}

/**
 * Starts timing a wait for an answer (and its span, in a traced run), from `since` (the
 * question's time: a run that continued as new goes on timing the same wait). Call `end` once.
 */
export function inputWait(agent: string, taskId: string, round: number, since = Date.now()): InputWait {
  const started = since;
  const attributes = { [A2A_ATTR.agent]: agentLabel(agent), [A2A_ATTR.taskId]: taskId, [A2A_ATTR.round]: round };
  const otel = isTracedRun() ? openTelemetry() : undefined;
  const span: OpenTelemetry.Span | undefined = otel?.trace.getActiveSpan()
    ? getRandomStream('a2a-temporal/tracing').with(() =>
        otel.trace.getTracer('a2a-temporal').startSpan('a2a input-required', { attributes }, otel.context.active()),
      )
    : undefined;
  return {
    end(outcome: InputOutcome, by?: string): void {
      metricMeter
        .createHistogram(
          A2A_METRIC.inputWait,
          'int',
          'ms',
          'Time from a question to its answer (or deadline), by agent',
        )
        .record(Date.now() - started, { agent: attributes[A2A_ATTR.agent], outcome });
      if (!span) return;
      span.setAttributes({
        [A2A_ATTR.inputOutcome]: outcome,
        ...(outcome === 'answered' ? { [A2A_ATTR.answeredBy]: boundedLabel(by || 'unknown') } : {}),
      });
      span.setStatus({ code: outcome === 'timeout' ? otel!.SpanStatusCode.ERROR : otel!.SpanStatusCode.OK });
      span.end();
    },
  };
}

/**
 * `@opentelemetry/api` as the traced run's interceptors use it: required in the workflow, so the
 * run gets its own instance (a module imported here would be shared by every workflow: see
 * tracing-interceptors.ts).
 */
function openTelemetry(): typeof OpenTelemetry {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@opentelemetry/api') as typeof OpenTelemetry;
}
