/**
 * The building blocks of errors (internal to a2a/): their messages, and the details they carry. Every piece of agent-sent text that
 * goes into a message passes through {@link quote} or {@link scrubbed}: bounded first, scrubbed of
 * credentials, then cut, so a cut never leaves part of a secret behind.
 */
import { longestSecretForm, scrubSecrets } from './auth.js';
import type { ErrorContext } from './errors.js';

/** No error message of the A2A client is longer than this (characters). */
export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/** Copies the defined `details` onto `error` (subclasses `declare` the fields they carry). */
export function keep(error: Error, details: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(details)) if (value !== undefined) Object.assign(error, { [key]: value });
}

/** Longest URL printed in a message. */
const MAX_URL_LENGTH = 200;

/** `text`, cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** At most `max` characters of agent-sent `text`, scrubbed of `secrets`. */
export function scrubbed(text: string, secrets: readonly string[] = [], max = 80): string {
  const window = text.length > max ? text.slice(0, max + longestSecretForm(secrets)) : text;
  return clip(scrubSecrets(window, secrets), max);
}

/** `"SendMessage to http://…"`, or whatever part of that is known. */
export function where(ctx: ErrorContext, preposition = 'to'): string {
  const url = ctx.agentUrl === undefined ? undefined : clip(ctx.agentUrl, MAX_URL_LENGTH);
  if (ctx.operation && url) return `${ctx.operation} ${preposition} ${url}`;
  if (ctx.operation) return ctx.operation;
  if (url) return `The call ${preposition} ${url}`;
  return 'The A2A call';
}

/** A value for a message: JSON, at most `max` characters, scrubbed of `secrets`. */
export function quote(value: unknown, secrets: readonly string[] = [], max = 80): string {
  if (value === undefined) return 'nothing';
  const budget = max + longestSecretForm(secrets) + 8;
  return clip(scrubSecrets(preview(value, budget), secrets), max);
}

/** Longest nesting a preview descends into. */
const PREVIEW_DEPTH = 8;

/**
 * The start of `JSON.stringify(value)`, about `budget` characters long, written without
 * stringifying the whole value (a 300 KB value costs what its first characters cost).
 */
function preview(value: unknown, budget: number, depth = 0): string {
  if (typeof value === 'string') return JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (depth >= PREVIEW_DEPTH) return Array.isArray(value) ? '[…]' : '{…}';
  const array = Array.isArray(value);
  let out = array ? '[' : '{';
  let first = true;
  const add = (piece: () => string): boolean => {
    if (out.length >= budget) return false;
    out += (first ? '' : ',') + piece();
    first = false;
    return true;
  };
  if (array) {
    for (const item of value as unknown[])
      if (!add(() => preview(item, budget - out.length, depth + 1))) return `${out}…`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || record[key] === undefined) continue;
    const entry = () => `${preview(key, budget)}:${preview(record[key], budget - out.length, depth + 1)}`;
    if (!add(entry)) return `${out}…`;
  }
  return `${out}}`;
}

/**
 * A copy of `error` fit to travel as a cause: name, code and message scrubbed and cut, its own
 * cause likewise (three levels deep). Network errors from undici can quote a URL; a copy cannot.
 */
export function safeCause(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth >= 3) return undefined;
  const inner = error.cause ?? (error instanceof AggregateError ? (error.errors as unknown[])[0] : undefined);
  const next = safeCause(inner, secrets, depth + 1);
  const copy = new Error(scrubbed(error.message, secrets, 300), next ? { cause: next } : undefined);
  copy.name = clip(error.name, 60);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code: clip(code, 60) });
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  copy.stack = [`${copy.name}: ${copy.message}`, ...frames.slice(0, 10)].join('\n');
  return copy;
}
