/**
 * A push delivery's body, read as far as the receiver needs: which task it is about, the state it
 * shows, and whether it is worth waking the delegation. A2A 1.0 agents POST a StreamResponse
 * (`task` | `statusUpdate` | `artifactUpdate` | `message`); 0.3 agents POST the event with a `kind`
 * tag (the SDK's legacy sender: usually the whole Task).
 */
import { createHash } from 'node:crypto';
import { type StreamResponse, type TaskState } from '../a2a/index.js';
import { InvalidResponseError } from '../a2a/errors.js';
import { StreamResponseSchema } from '../a2a/schemas/events.js';
import { parseWire } from '../a2a/validation.js';
import { legacyEventToV1 } from '../a2a/v0-3/to-v1.js';
import type { TaskUpdatedNotice } from '../contract/delegation-types.js';

/** What a delivery says, in the `taskUpdated` signal's terms (plus the task id it names, if any). */
export interface DeliveryNotice {
  /** The task the body is about (`undefined` for a message without a task). */
  taskId: string | undefined;
  state?: TaskState;
  /** The status message's id, when the body has a status with a message. */
  messageId?: string;
  kind: TaskUpdatedNotice['kind'];
  /** The agent's wire version, for logs. */
  version: '1.0' | '0.3';
  /**
   * What makes two deliveries the same news: the status they show (state, message id and
   * timestamp) when it has a timestamp, else the body's bytes. The receiver signals each one once.
   */
  generation: string;
}

/**
 * The longest id (task, message) or state a delivery may carry: what the receiver forwards ends
 * up in the delegation's history (a 1 MB message id, 53 times, was 53 MB of history).
 */
export const MAX_DELIVERY_ID_LENGTH = 256;

/** The fields of a delivery notice whose length {@link MAX_DELIVERY_ID_LENGTH} bounds. */
type BoundedField = 'taskId' | 'messageId' | 'state';

/** The first of the notice's ids and state that is longer than {@link MAX_DELIVERY_ID_LENGTH}, by name. */
export function oversizedId(ids: Partial<Record<BoundedField, string>>): BoundedField | undefined {
  return (Object.keys(ids) as Array<keyof typeof ids>).find((key) => (ids[key]?.length ?? 0) > MAX_DELIVERY_ID_LENGTH);
}

/** Thrown for a body that is not a push delivery; `message` is safe to send back and log. */
export class MalformedDeliveryError extends Error {
  override readonly name = 'MalformedDeliveryError';
  /** The field whose id is longer than the schemas allow, when that is what is wrong with the body. */
  readonly oversizedId?: string;

  constructor(message: string, oversizedId?: string) {
    super(message);
    if (oversizedId) this.oversizedId = oversizedId;
  }
}

/** Parses a delivery body (JSON text). @throws MalformedDeliveryError */
export function parseDelivery(text: string): DeliveryNotice {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MalformedDeliveryError(
      'The body is not JSON; a push delivery is a StreamResponse (A2A 1.0) or a Task with "kind" (A2A 0.3).',
    );
  }
  const legacy = typeof json === 'object' && json !== null && typeof (json as { kind?: unknown }).kind === 'string';
  let event: StreamResponse;
  try {
    event = legacy
      ? legacyEventToV1(json, { operation: 'The push delivery', what: 'task event' }).response
      : parseWire(StreamResponseSchema, json, { operation: 'The push delivery', what: 'StreamResponse' });
  } catch (err) {
    if (err instanceof InvalidResponseError) throw new MalformedDeliveryError(err.message, idField(err));
    throw err;
  }
  const { timestamp, ...notice } = describe(event);
  const generation =
    timestamp === undefined
      ? `body:${createHash('sha256').update(text).digest('base64url')}`
      : `status:${JSON.stringify([notice.state, notice.messageId ?? '', timestamp])}`;
  return { ...notice, version: legacy ? '0.3' : '1.0', generation };
}

/** The id field an invalid body failed on for its length (the schemas bound every id to 256 characters). */
function idField(err: InvalidResponseError): string | undefined {
  const field = err.path?.split('.').at(-1) ?? '';
  return /(^id|Id)$/.test(field) && err.message.includes(`at most ${MAX_DELIVERY_ID_LENGTH} characters`)
    ? field
    : undefined;
}

function describe(event: StreamResponse): Omit<DeliveryNotice, 'version' | 'generation'> & { timestamp?: string } {
  const status = 'task' in event ? event.task.status : 'statusUpdate' in event ? event.statusUpdate.status : undefined;
  const shown = status
    ? {
        state: status.state,
        ...(status.message?.messageId ? { messageId: status.message.messageId } : {}),
        ...(status.timestamp ? { timestamp: status.timestamp } : {}),
      }
    : {};
  if ('task' in event) return { kind: 'task', taskId: event.task.id, ...shown };
  if ('statusUpdate' in event) return { kind: 'statusUpdate', taskId: event.statusUpdate.taskId, ...shown };
  if ('artifactUpdate' in event) return { kind: 'artifactUpdate', taskId: event.artifactUpdate.taskId };
  return { kind: 'message', taskId: event.message.taskId };
}

/** States after which following the task goes on unchanged (see `phaseOf` in activities/task-outcome.ts). */
const PROGRESS_STATES: ReadonlySet<TaskState> = new Set<TaskState>(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);

/**
 * Whether the delegation should read the task again: only when the delivery may show a terminal
 * or interrupted state. Artifact chunks and `working` updates cannot end a wait, and the SDK
 * sends one POST per event, so signalling them would add history for nothing.
 */
export function worthSignal(notice: Pick<DeliveryNotice, 'kind' | 'state'>): boolean {
  if (notice.kind === 'artifactUpdate') return false;
  return notice.state === undefined || !PROGRESS_STATES.has(notice.state);
}
