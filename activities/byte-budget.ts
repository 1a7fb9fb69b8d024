/**
 * A byte budget for everything one agent puts into one delegation: artifact parts (text, file
 * bytes, data, URLs), status texts and questions. The count caps bound parts and artifacts; this
 * counts bytes, so 700 stream events of 7 MiB each (every one under the event cap) end after a
 * few events with `A2A_RESPONSE_TOO_LARGE` instead of being assembled until the worker runs out of
 * memory. It is checked before anything is assembled, and the stream is closed right there.
 *
 * What counts:
 * - what the delegation holds (`held`): re-measured whole when we read the task ourselves (a
 *   GetTask, the first event of a stream), so following a task for hours costs nothing more;
 * - what the agent made it drop (`dropped`): an artifact replaced, a status superseded, a task
 *   snapshot pushed mid-stream. It never goes down, so an agent cannot stream without end by
 *   replacing what it sent. It is carried in the heartbeat details (a new attempt goes on counting)
 *   and in the round's outcome (the next round can go on counting: RoundSettings.droppedBytes).
 *
 * Sizes are measured without serialising: a string counts its length (its bytes for ASCII text and
 * base64), a number, boolean or null 8, so measuring costs the number of values, not their bytes.
 * File parts go to the blob store as they arrive (activities/artifact-spool.ts): what history
 * keeps of them is a small placeholder counted here, and their bytes count against a second,
 * larger budget of the same kind (`maxDelegationStoredBytes`, 1 GiB by default). A large text
 * goes to the store too, but counts here as the text it is.
 */
import { ResponseTooLargeError } from '../a2a/errors.js';
import type { Part } from '../a2a/index.js';
import { DEFAULT_LIMITS, type LimitName } from '../a2a/limits.js';

export class ByteBudget {
  private held = 0;

  constructor(
    readonly max: number = DEFAULT_LIMITS.maxDelegationBytes,
    /** Bytes dropped before (an earlier attempt or round of this delegation). */
    private dropped = 0,
    /** The cap it stands for, as the failure names it. */
    private readonly limit: Extract<
      LimitName,
      'maxDelegationBytes' | 'maxDelegationStoredBytes'
    > = 'maxDelegationBytes',
  ) {}

  /** Bytes counted against the budget: held plus dropped. */
  get used(): number {
    return this.held + this.dropped;
  }

  /** What the agent made this delegation drop so far: carried to the next attempt and round. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /**
   * `bytes` of new content arrive (and are kept).
   * @throws ResponseTooLargeError (`maxDelegationBytes`) when the budget would be passed: nothing is kept then.
   */
  hold(bytes: number): void {
    this.replace(0, bytes);
  }

  /**
   * `bytes` of new content replace `before` bytes of what is held (an artifact replaced, a status
   * superseded, everything when the agent pushes a snapshot): those are dropped, still counted.
   * @throws ResponseTooLargeError when the budget would be passed: nothing changes then.
   */
  replace(before: number, bytes: number): void {
    if (this.used + bytes > this.max) throw new ResponseTooLargeError({ limit: this.limit, max: this.max });
    const gone = Math.min(before, this.held);
    this.held += bytes - gone;
    this.dropped += gone;
  }

  /** All that is held, for {@link replace}. */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * We read the task ourselves and it holds `bytes` in all: that is what is held now.
   * @throws ResponseTooLargeError when the task alone (plus what was dropped) passes the budget.
   */
  rebase(bytes: number): void {
    const before = this.held;
    this.held = 0;
    try {
      this.hold(bytes);
    } catch (err) {
      this.held = before;
      throw err;
    }
  }
}

/** Our placeholder for a chunk the spool stored (activities/artifact-spool.ts). */
export const SPOOLED_KEY = 'a2aTemporal.spooled';

/**
 * The size of a part or a message's parts, as the budget counts it. A text the spool stored
 * counts as the text it stands for: text is content the delegation holds, wherever it is kept.
 */
export function partsBytes(parts: readonly Part[] | undefined): number {
  let total = 0;
  for (const part of parts ?? []) total += valueBytes(part) + storedTextBytes(part);
  return total;
}

function storedTextBytes(part: Part): number {
  const slot = part.metadata?.[SPOOLED_KEY] as { file?: unknown; size?: unknown } | undefined;
  return slot?.file === -1 && typeof slot.size === 'number' ? slot.size : 0;
}

/** Deepest nesting measured (the values were read within the JSON depth cap anyway). */
const MAX_MEASURED_DEPTH = 128;

/** A JSON value's size: its strings' lengths (keys included), 8 for any other scalar. */
export function valueBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 8;
  if (depth >= MAX_MEASURED_DEPTH) return 8;
  let total = 0;
  if (Array.isArray(value)) {
    for (const item of value) total += valueBytes(item, depth + 1);
    return total;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    total += key.length + valueBytes((value as Record<string, unknown>)[key], depth + 1);
  }
  return total;
}
