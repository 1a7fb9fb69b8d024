/**
 * The receiver's log: sampled, so a flood writes a few lines, not one a request, and terminal
 * safe, since what it quotes (paths, ids) comes from senders nobody authenticated yet.
 *
 * Each kind of line (a refusal reason, a failure) is written in full the first time it happens
 * in a window (10 s); later ones in the same window are only counted, and one summary line at
 * the window's end says how many of each there were.
 */

/**
 * Characters a terminal or a log viewer would act on or hide: controls (C0, DEL, C1), format
 * characters (bidi overrides and isolates, zero-width characters, the BOM, tags) and the line and
 * paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * `value` as a log-safe token: JSON-quoted (the same string for a log shipper), cut at 200
 * characters, with every control, bidi, zero-width and separator character written as `\uXXXX`,
 * so it can neither move the cursor, reorder the line nor hide what it says.
 */
export function printable(value: string): string {
  const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
  return JSON.stringify(shown).replace(INVISIBLE, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

type Level = 'warn' | 'error';

export class SampledLog {
  private readonly counts = new Map<string, { level: Level; suppressed: number }>();
  private windowStart: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Pick<Console, Level>,
    private readonly windowMs = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  /** Writes `line()` if it is the first of its `kind` in this window; otherwise counts it. */
  write(kind: string, level: Level, line: () => string): void {
    if (this.now() - this.windowStart >= this.windowMs) this.flush();
    const seen = this.counts.get(kind);
    if (!seen) {
      this.counts.set(kind, { level, suppressed: 0 });
      this.logger[level](line());
      return;
    }
    this.hold(seen);
  }

  /** Counts a line of `kind` for the summary without ever writing it on its own (a sender over its rate). */
  count(kind: string, level: Level): void {
    if (this.now() - this.windowStart >= this.windowMs) this.flush();
    let seen = this.counts.get(kind);
    if (!seen) {
      seen = { level, suppressed: 0 };
      this.counts.set(kind, seen);
    }
    this.hold(seen);
  }

  private hold(seen: { suppressed: number }): void {
    seen.suppressed += 1;
    // Lines were held back: say so when the window ends, even if nothing else happens.
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowStart + this.windowMs - this.now())).unref();
  }

  /** Writes the summary of the window's held-back lines, if any, and starts a new window. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = [...this.counts].filter(([, c]) => c.suppressed > 0);
    if (held.length > 0) {
      const total = held.reduce((sum, [, c]) => sum + c.suppressed, 0);
      const seconds = Math.round((this.now() - this.windowStart) / 1000);
      const level = held.some(([, c]) => c.level === 'error') ? 'error' : 'warn';
      this.logger[level](
        `webhook: ${total} more in the last ${seconds} s, counted but not written one by one: ${held.map(([kind, c]) => `${kind} ${c.suppressed}`).join(', ')}`,
      );
    }
    this.counts.clear();
    this.windowStart = this.now();
  }
}
