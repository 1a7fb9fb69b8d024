import { afterEach, describe, expect, it, vi } from 'vitest';
import { printable, SampledLog } from '../../../worker/webhook-log.js';

describe('printable', () => {
  it('quotes and escapes every control, bidi, zero-width and separator character, so a terminal shows them', () => {
    const hostile = 'a\u001b[2Jb\u009b2Jc\u202eevil\u2066d\u200be\u2028f\ufeffg\u{e0041}h\n';
    const shown = printable(hostile);
    expect(shown).toBe('"a\\u001b[2Jb\\u009b2Jc\\u202eevil\\u2066d\\u200be\\u2028f\\ufeffg\\udb40\\udc41h\\n"');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/);
    // The same string for a log shipper that reads it as JSON.
    expect(JSON.parse(shown)).toBe(hostile);
  });

  it('cuts long values', () => {
    expect(printable('x'.repeat(500))).toBe(`"${'x'.repeat(200)}…"`);
  });
});

describe('the sampled log', () => {
  afterEach(() => vi.useRealTimers());

  it('writes the first line of each kind in a window, then one summary of the rest', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = new SampledLog({
      warn: (l: string) => lines.push(`W ${l}`),
      error: (l: string) => lines.push(`E ${l}`),
    });
    for (let i = 0; i < 1000; i += 1) log.write('unauthenticated', 'warn', () => `refused ${i}`);
    log.write('bad-credential', 'warn', () => 'bad');
    log.write('unavailable', 'error', () => 'down');
    log.write('unavailable', 'error', () => 'down again');
    for (let i = 0; i < 50; i += 1) log.count('rate-limited', 'warn'); // never a line of its own
    expect(lines).toEqual(['W refused 0', 'W bad', 'E down']);
    vi.advanceTimersByTime(10_000);
    expect(lines.slice(3)).toEqual([
      'E webhook: 1050 more in the last 10 s, counted but not written one by one: unauthenticated 999, unavailable 1, rate-limited 50',
    ]);
    // A new window: the first of a kind is written again.
    log.write('unauthenticated', 'warn', () => 'refused again');
    expect(lines.at(-1)).toBe('W refused again');
  });
});
