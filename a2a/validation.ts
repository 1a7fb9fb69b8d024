/**
 * Turns zod failures into {@link InvalidResponseError}s whose message names the operation, the
 * agent, the field path and the offending value, e.g.
 * `GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: status.state: expected a TASK_STATE_* value, got "done"`.
 */
import type { z } from 'zod';
import { InvalidResponseError, quote, where, type ErrorContext } from './errors.js';

export interface ParseContext extends ErrorContext {
  /** What the body should have been, e.g. `Task`, `StreamResponse`, `agent card`. */
  what: string;
  /** The protocol version the agent should speak, for the advice. */
  protocolVersion?: string;
}

/** Parses `value` with `schema` or throws an InvalidResponseError naming the first problem. */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, ctx: ParseContext): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = leafIssue(issues[0]!);
  const path = formatPath(first.path);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const message = `${where(ctx, 'from')} returned an invalid ${ctx.what}: ${path ? `${path}: ` : ''}${describeIssue(first)}${more}; ${advice(ctx)}.`;
  return throwInvalid(message, ctx, path, result.error);
}

function throwInvalid(message: string, ctx: ErrorContext, path: string, cause: unknown): never {
  throw new InvalidResponseError(message, { ...ctx, path, cause });
}

/** Throws the InvalidResponseError for a body that is not JSON at all. */
export function invalidJson(text: string, ctx: ParseContext, cause?: unknown): InvalidResponseError {
  const body = text.trim() === '' ? 'an empty body' : `a body that is not JSON (${quote(text.trim(), 60)})`;
  return new InvalidResponseError(
    `${where(ctx, 'from')} returned ${body} where a ${ctx.what} was expected; ${advice(ctx)}.`,
    {
      ...ctx,
      path: '',
      cause,
    },
  );
}

/** Parses a JSON text, or throws an InvalidResponseError. */
export function parseJsonText(text: string, ctx: ParseContext): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidJson(text, ctx, error);
  }
}

function advice(ctx: ParseContext): string {
  const version = ctx.protocolVersion ? `A2A ${ctx.protocolVersion}` : 'A2A';
  return `the agent does not follow the ${version} wire format, so retrying will not help`;
}

/** A union's error hides the real problem in its branches; dig into the branch that got furthest. */
function leafIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: z.core.$ZodIssue[] | undefined;
  for (const branch of issue.errors) {
    if (!best || depth(branch) > depth(best)) best = branch;
  }
  const inner = best?.[0];
  if (!inner) return issue;
  // Only descend when the branch got past the top level; otherwise keep the union's own message.
  if (inner.path.length === 0) return issue;
  return leafIssue({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue);
}

function depth(issues: z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

/** `status.message.parts[0].text` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  nonoptional: 'a value',
  record: 'an object',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const input = 'input' in issue ? issue.input : undefined;
  const got = `got ${quote(input)}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = ARTICLES[issue.expected] ?? issue.expected;
      // Custom messages start with "expected"; zod's defaults start with "Invalid input".
      const text = issue.message.startsWith('expected') ? issue.message : `expected ${expected}`;
      return input === undefined ? `missing, ${text}` : `${text}, ${got}`;
    }
    case 'too_small':
      return issue.message.startsWith('must') || issue.message.startsWith('expected')
        ? `${issue.message}, ${got}`
        : `too small, ${got}`;
    case 'invalid_value':
      return input === undefined ? `missing, ${issue.message}` : `${issue.message}, ${got}`;
    case 'custom':
    case 'invalid_union':
      return `${issue.message}, ${got}`;
    default:
      return `${issue.message}, ${got}`;
  }
}
