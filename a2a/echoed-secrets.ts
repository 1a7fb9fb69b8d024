/**
 * Credentials out of everything an agent sends back: a validated response passes through here
 * before anyone reads it (activities, spans, history, logs). An agent that echoes the request it
 * received puts our credential where we would otherwise copy it on: a task id becomes a search
 * attribute, a status text a failure message, an artifact name a line in `status`.
 *
 * - An identifier (a task, context, message or artifact id, a referenced task) that holds a
 *   credential is refused: an id cannot be scrubbed, since we would then follow another task.
 * - Every other string (texts, names, URLs, metadata keys and values, file contents) has each
 *   echoed form of each credential replaced by `[redacted]` (see `SecretScrubber`: raw,
 *   percent-, form- and JSON-encoded, and inside base64).
 *
 * The credentials are those the client sent (`HttpClient.credentials`: its auth's header and
 * query values, not the agent URL's own query values, which are often names). Costs one walk over the value,
 * bounded by the caps the value was read within; nothing at all for an agent without credentials.
 */
import { scrubberFor, type SecretScrubber } from './auth.js';
import { clip, where } from './error-text.js';
import { InvalidResponseError } from './errors.js';
import type { ParseContext } from './validation.js';

/** The keys whose string values (or lists of strings) are identifiers, in 1.0 and both 0.3 dialects. */
const ID_KEYS: ReadonlySet<string> = new Set([
  'id',
  'taskId',
  'contextId',
  'messageId',
  'artifactId',
  'referenceTaskIds',
  'task_id',
  'context_id',
  'message_id',
  'artifact_id',
  'reference_task_ids',
]);

/**
 * `value` (a validated response, changed in place and returned) with every credential the client
 * sent scrubbed from its strings.
 *
 * @throws InvalidResponseError when an identifier holds a credential.
 */
export function withoutEchoedSecrets<T>(value: T, ctx: ParseContext): T {
  if (!ctx.credentials?.length) return value;
  const scrubber = scrubberFor(ctx.credentials);
  if (scrubber.empty) return value;
  return visit(value, '', false, scrubber, ctx) as T;
}

function visit(value: unknown, path: string, isId: boolean, scrubber: SecretScrubber, ctx: ParseContext): unknown {
  if (typeof value === 'string') {
    if (!scrubber.contains(value)) return value;
    if (isId) {
      const field = clip(scrubber.scrub(path), 160) || 'id';
      throw new InvalidResponseError(
        `${where(ctx, 'from')} returned a ${ctx.what} whose ${field} holds the credential we sent it; an id cannot be redacted, so the response is refused (the agent echoes what it receives).`,
        {
          ...(ctx.operation !== undefined ? { operation: ctx.operation } : {}),
          ...(ctx.agentUrl !== undefined ? { agentUrl: ctx.agentUrl } : {}),
          path: field,
        },
      );
    }
    return scrubber.scrub(value);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = visit(value[i], `${path}[${i}]`, isId, scrubber, ctx);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const inner = path ? `${path}.${key}` : key;
    const next = visit(record[key], inner, ID_KEYS.has(key), scrubber, ctx);
    if (scrubber.contains(key)) {
      delete record[key];
      Object.defineProperty(record, scrubber.scrub(key), {
        value: next,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else if (next !== record[key]) record[key] = next;
  }
  return record;
}
