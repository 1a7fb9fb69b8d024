/**
 * How the receiver's process is doing, for the stats listener: resident memory (now, and the
 * peak since the gauges were last reset) and the event loop's delay (p50, p99, max since the last
 * reset). The hostile tests read them to say what an attack cost the worker.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface ProcessGauges {
  rssBytes: number;
  /** The highest resident memory seen since the last reset (sampled every 100 ms). */
  peakRssBytes: number;
  /** The kernel's own peak for the whole life of the process. */
  maxRssBytesSinceStart: number;
  /** The event loop's delay since the last reset, in milliseconds. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
}

export interface ProcessGaugeReader {
  read(): ProcessGauges;
  reset(): void;
  stop(): void;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

export function startProcessGauges(): ProcessGaugeReader {
  const delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100).unref();
  return {
    read() {
      const rss = process.memoryUsage.rss();
      peak = Math.max(peak, rss);
      return {
        rssBytes: rss,
        peakRssBytes: peak,
        maxRssBytesSinceStart: process.resourceUsage().maxRSS * 1024,
        eventLoopDelayMs: {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
        },
      };
    },
    reset() {
      delay.reset();
      peak = process.memoryUsage.rss();
    },
    stop() {
      clearInterval(sampler);
      delay.disable();
    },
  };
}
