/**
 * The worker's log lines: the SDK's text line (`<time> [LEVEL] message {meta}`), or with
 * `A2A_LOG_FORMAT=json` one JSON object per line for log shippers. Either way every line is
 * terminal safe, and the meta of workflow and activity logs carries the workflow id and, in a
 * traced run, `trace_id` and `span_id` (from the tracing interceptors).
 */
import type { LogEntry, LogLevel } from '@temporalio/worker';
import { terminalJson, terminalSafeLogFunction } from './terminal-text.js';

export type LogFormat = 'text' | 'json';

/** @throws Error naming the variable when it is neither `text` nor `json`. */
export function logFormat(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const value = env.A2A_LOG_FORMAT?.trim().toLowerCase() || 'text';
  if (value === 'text' || value === 'json') return value;
  throw new Error(`Environment variable A2A_LOG_FORMAT is invalid: "${value}" (expected text or json).`);
}

/** The log function for the SDK's `DefaultLogger`. */
export function logFunction(format: LogFormat): (entry: LogEntry) => void {
  return format === 'json' ? jsonLogFunction : terminalSafeLogFunction;
}

/** One line: `{"time","level","message",...meta}` (errors as name and message). */
export function jsonLogFunction(entry: LogEntry): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  process.stderr.write(`${jsonLine(time, entry.level, entry.message, entry.meta)}\n`);
}

/** A console-like logger with the same lines (the webhook receiver's refusals). */
export function consoleLogger(format: LogFormat): Pick<Console, 'warn' | 'error'> {
  if (format === 'text') return console;
  const line = (level: LogLevel) => (message: unknown) =>
    process.stderr.write(`${jsonLine(new Date().toISOString(), level, String(message))}\n`);
  return { warn: line('WARN'), error: line('ERROR') };
}

function jsonLine(time: string, level: string, message: string, meta?: Record<string, unknown>): string {
  return terminalJson({ time, level, message, ...meta }, undefined, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) return { name: value.name, message: value.message };
    return value;
  });
}
