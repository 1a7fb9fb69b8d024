/**
 * Chunks of a body read with a turn of the event loop now and then. Chunks that are already
 * buffered are read in one run of microtasks, however many there are: without a turn, an agent
 * that sends a flood of legal events (or a huge legal body) holds the worker's event loop — and
 * every other delegation's heartbeats, streams and timers — for as long as parsing them takes.
 */
import { setImmediate } from 'node:timers/promises';

/** Bytes read between two turns: a few milliseconds of tokenizing on a slow core. */
export const TURN_EVERY_BYTES = 256 * 1024;

/**
 * Yields `chunks`, giving the event loop a turn after every {@link TURN_EVERY_BYTES} of them. A
 * byte chunk larger than that is yielded in slices of it, a turn between each: a stream read
 * while its producer is faster hands over everything buffered at once (megabytes, measured: 80 ms
 * of tokenizing in one task). String chunks are yielded whole (a slice could split a character).
 */
export async function* withLoopTurns<C extends Uint8Array | string>(
  chunks: AsyncIterable<C>,
): AsyncGenerator<C, void, undefined> {
  let sinceTurn = 0;
  for await (const chunk of chunks) {
    let at = 0;
    do {
      const take = typeof chunk === 'string' ? chunk.length : Math.min(chunk.length - at, TURN_EVERY_BYTES - sinceTurn);
      yield at === 0 && take === chunk.length ? chunk : ((chunk as Uint8Array).subarray(at, at + take) as C);
      at += take;
      sinceTurn += take;
      if (sinceTurn >= TURN_EVERY_BYTES) {
        sinceTurn = 0;
        await setImmediate();
      }
    } while (at < chunk.length);
  }
}
