/**
 * Chunks of a body read with a turn of the event loop now and then. Chunks that are already
 * buffered are read in one run of microtasks, however many there are: without a turn, an agent
 * that sends a flood of legal events (or a huge legal body) holds the worker's event loop — and
 * every other delegation's heartbeats, streams and timers — for as long as parsing them takes.
 */
import { setImmediate } from 'node:timers/promises';

/** Bytes read between two turns: a few milliseconds of tokenizing on a slow core. */
export const TURN_EVERY_BYTES = 256 * 1024;

/** Yields `chunks` as they are, giving the event loop a turn after every {@link TURN_EVERY_BYTES} of them. */
export async function* withLoopTurns<C extends Uint8Array | string>(
  chunks: AsyncIterable<C>,
): AsyncGenerator<C, void, undefined> {
  let sinceTurn = 0;
  for await (const chunk of chunks) {
    yield chunk;
    sinceTurn += chunk.length;
    if (sinceTurn >= TURN_EVERY_BYTES) {
      sinceTurn = 0;
      await setImmediate();
    }
  }
}
