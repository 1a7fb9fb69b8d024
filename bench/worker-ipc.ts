/**
 * What a bench worker child answers over IPC (both the product's worker, worker-main.ts, and the
 * bare-SDK one, bare/worker-main.ts): a full garbage collection before the bench reads its RSS,
 * and how long its event loop was blocked since the last ask.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const WORKER_READY_LINE = 'bench worker ready';
export const GC_REQUEST = 'bench:gc';
export const EVENT_LOOP_REQUEST = 'bench:event-loop';

export function answerBenchRequests(): void {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message) => {
    if (message === EVENT_LOOP_REQUEST) {
      process.send?.({ eventLoop: { maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6 } });
      loop.reset();
      return;
    }
    if (message !== GC_REQUEST) return;
    const before = process.memoryUsage();
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ gc: { before, after: process.memoryUsage() } });
  });
}
