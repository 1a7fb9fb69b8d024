/**
 * From agent-sent text to validated objects, with bounded work and bounded, scrubbed errors.
 *
 * - {@link parseJsonText} refuses JSON nested deeper than `maxJsonDepth` (one linear scan, no
 *   recursion), so no deep value ever reaches code that recurses (`JSON.stringify`,
 *   `structuredClone`, Temporal's payload converter).
 * - {@link parseWire} checks the artifact and part counts before zod sees the value, stops zod
 *   after {@link MAX_INVALID_VALUES} invalid values, takes every credential the client sent out
 *   of the valid value (see echoed-secrets.ts), and turns the first problem into an
 *   {@link InvalidResponseError} naming the operation, the agent, the field path, the expected
 *   type and at most 80 scrubbed characters of the value, e.g.
 *   `GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: status.state: expected a TASK_STATE_* value, got "done"`.
 *   The raw input never travels in the error or its cause.
 */
import type { z } from 'zod';
import { withoutEchoedSecrets } from './echoed-secrets.js';
import { clip, quote, scrubbed, where } from './error-text.js';
import { InvalidResponseError, ResponseTooLargeError, type ErrorContext } from './errors.js';
import type { HttpClient } from './http.js';
import { DEFAULT_LIMITS, LIMIT_ENV, type A2ALimits } from './limits.js';
import { MAX_INVALID_VALUES, TooManyInvalidValues, boundedSafeParse } from './schemas/bounded-parse.js';
import { isRecord } from './json-record.js';

export interface ParseContext extends ErrorContext {
  /** What the body should have been, e.g. `Task`, `StreamResponse`, `agent card`. */
  what: string;
  /** The protocol version the agent should speak, for the advice. */
  protocolVersion?: string;
  /** Credential values to keep out of messages (see `HttpClient.secrets`). */
  secrets?: readonly string[];
  /** The credentials the client sent, to take out of the response itself (see `HttpClient.credentials`). */
  credentials?: readonly string[];
  /** Count and depth caps. @default DEFAULT_LIMITS */
  limits?: A2ALimits;
}

/** The context to parse a response `http` read with: what to keep out of messages and of the value, and the caps. */
export function responseContext(
  http: Pick<HttpClient, 'secrets' | 'credentials' | 'limits'>,
  ctx: Omit<ParseContext, 'secrets' | 'credentials' | 'limits'>,
): ParseContext {
  return { ...ctx, secrets: http.secrets, credentials: http.credentials, limits: http.limits };
}

/** Parses `value` with `schema` or throws an InvalidResponseError (or ResponseTooLargeError) naming the first problem. */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, ctx: ParseContext): z.output<S> {
  checkCounts(value, ctx);
  let result: z.ZodSafeParseResult<z.output<S>>;
  try {
    result = boundedSafeParse(schema, value, { reportInput: true });
  } catch (error) {
    if (!(error instanceof TooManyInvalidValues)) throw error;
    const first = quote(error.first, ctx.secrets);
    throw invalid(`more than ${MAX_INVALID_VALUES} values are invalid, the first being ${first}`, ctx, '');
  }
  if (result.success) return withoutEchoedSecrets(result.data, ctx);
  const issues = result.error.issues;
  const first = leafIssue(issues[0]!);
  const path = formatPath(first.path, ctx.secrets);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  throw invalid(
    `${path ? `${path}: ` : ''}${describeIssue(first, ctx.secrets)}${more}`,
    ctx,
    path,
    summary(issues, ctx),
  );
}

export function invalid(problem: string, ctx: ParseContext, path: string, cause?: Error): InvalidResponseError {
  return new InvalidResponseError(
    `${where(ctx, 'from')} returned an invalid ${ctx.what}: ${problem}; ${advice(ctx)}.`,
    {
      ...context(ctx),
      path,
      ...(cause ? { cause } : {}),
    },
  );
}

/** The zod issues without their inputs: path and message of the first five, scrubbed and cut. */
function summary(issues: readonly z.core.$ZodIssue[], ctx: ParseContext): Error {
  const lines = issues.slice(0, 5).map((i) => scrubbed(`${formatPath(i.path)}: ${i.message}`, ctx.secrets, 160));
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  const error = new Error(`${lines.join('; ')}${more}`);
  error.name = 'ValidationIssues';
  return error;
}

function context(ctx: ErrorContext): ErrorContext {
  const out: ErrorContext = {};
  if (ctx.operation !== undefined) out.operation = ctx.operation;
  if (ctx.agentUrl !== undefined) out.agentUrl = ctx.agentUrl;
  return out;
}

/** The InvalidResponseError for a body that is not JSON at all: quotes at most 80 scrubbed characters. */
export function invalidJson(text: string, ctx: ParseContext): InvalidResponseError {
  const trimmed = text.trim();
  const body = trimmed === '' ? 'an empty body' : `a body that is not JSON (${quote(trimmed, ctx.secrets)})`;
  return new InvalidResponseError(
    `${where(ctx, 'from')} returned ${body} where a ${ctx.what} was expected; ${advice(ctx)}.`,
    { ...context(ctx), path: '' },
  );
}

/** Parses a JSON text, or throws an InvalidResponseError (not JSON, or nested deeper than `maxJsonDepth`). */
export function parseJsonText(text: string, ctx: ParseContext): unknown {
  const maxDepth = (ctx.limits ?? DEFAULT_LIMITS).maxJsonDepth;
  if (exceedsDepth(text, maxDepth)) {
    throw new InvalidResponseError(
      `${where(ctx, 'from')} returned JSON nested deeper than ${maxDepth} levels where a ${ctx.what} was expected (raise ${LIMIT_ENV.maxJsonDepth}, client option limits.maxJsonDepth, if the agent really nests that deep); ${advice(ctx)}.`,
      { ...context(ctx), path: '' },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The SyntaxError quotes the body, possibly a cut secret: it is not kept as the cause.
    throw invalidJson(text, ctx);
  }
}

/**
 * True when `text`, read as JSON, opens more than `maxDepth` objects or arrays at once. One pass
 * over the characters, without recursion, whatever the input; a string is skipped to its
 * closing quote with `indexOf` (a 7 MiB text took 40 ms character by character, blocking the
 * event loop every delegation shares), looking back over the backslashes before each quote found.
 */
export function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false; // an unterminated string: JSON.parse refuses it
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1. Linear: each run of backslashes is looked at once. */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Keys under which a response wraps a task or an artifact update (1.0 and both 0.3 dialects). */
const WRAPPERS = ['task', 'artifactUpdate', 'artifact_update'] as const;

/**
 * Refuses a task with more than `maxArtifactsPerTask` artifacts or an artifact with more than
 * `maxPartsPerArtifact` parts, before validation (whose cost would grow with them). Looks at a
 * Task, an artifact update, their wrappers and a ListTasks page, in the raw JSON.
 */
function checkCounts(value: unknown, ctx: ParseContext, depth = 0): void {
  if (!isRecord(value) || depth > 2) return;
  const limits = ctx.limits ?? DEFAULT_LIMITS;
  const tooLarge = (limit: 'maxArtifactsPerTask' | 'maxPartsPerArtifact'): ResponseTooLargeError =>
    new ResponseTooLargeError({ ...context(ctx), limit, max: limits[limit] });
  const artifact = (a: unknown): void => {
    if (isRecord(a) && Array.isArray(a.parts) && a.parts.length > limits.maxPartsPerArtifact)
      throw tooLarge('maxPartsPerArtifact');
  };
  if (Array.isArray(value.artifacts)) {
    if (value.artifacts.length > limits.maxArtifactsPerTask) throw tooLarge('maxArtifactsPerTask');
    value.artifacts.forEach(artifact);
  }
  artifact(value.artifact);
  if (Array.isArray(value.tasks)) for (const task of value.tasks) checkCounts(task, ctx, depth + 1);
  for (const key of WRAPPERS) checkCounts(value[key], ctx, depth + 1);
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

function depth(issues: readonly z.core.$ZodIssue[]): number {
  let max = 0;
  for (const issue of issues) max = Math.max(max, issue.path.length);
  return max;
}

/** `status.message.parts[0].text`, scrubbed, each key at most 64 and the whole at most 160 characters. */
export function formatPath(path: readonly PropertyKey[], secrets: readonly string[] = []): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += `${out ? '.' : ''}${clip(String(segment), 64)}`;
    if (out.length > 160) break;
  }
  return scrubbed(out, secrets, 160);
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

function describeIssue(issue: z.core.$ZodIssue, secrets: readonly string[] | undefined): string {
  const input = 'input' in issue ? issue.input : undefined;
  const got = `got ${quote(input, secrets)}`;
  // zod's own messages name the schema's expectations, never the input; ours are constants.
  const message = clip(issue.message, 160);
  switch (issue.code) {
    case 'invalid_type': {
      const expected = ARTICLES[issue.expected] ?? issue.expected;
      // Custom messages start with "expected"; zod's defaults start with "Invalid input".
      const text = message.startsWith('expected') ? message : `expected ${expected}`;
      return input === undefined ? `missing, ${text}` : `${text}, ${got}`;
    }
    case 'too_small':
      return message.startsWith('must') || message.startsWith('expected') ? `${message}, ${got}` : `too small, ${got}`;
    case 'invalid_value':
      return input === undefined ? `missing, ${message}` : `${message}, ${got}`;
    default:
      return `${message}, ${got}`;
  }
}
