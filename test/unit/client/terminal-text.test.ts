import { describe, expect, it, vi } from 'vitest';
import { terminalJson, terminalSafe, terminalSafeLogFunction } from '../../../client/terminal-text.js';

const OSC52 = '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07';
const CSI_CLEAR = '\x1b[2J\x1b[H';
/** Every code point a terminal may act on: C0 but newline and tab, DEL, C1. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => i).filter((i) => i !== 0x0a && i !== 0x09),
  0x7f,
  ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
].map((i) => String.fromCharCode(i));
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex

describe('terminalSafe', () => {
  it('renders an OSC 52 clipboard write as visible text', () => {
    expect(terminalSafe(`Which version?${OSC52}`)).toBe(
      'Which version?\\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\x07',
    );
  });

  it('renders CSI screen clears, 8-bit CSI and carriage returns visibly', () => {
    expect(terminalSafe(`a${CSI_CLEAR}b\x9b2Jc\rd`)).toBe('a\\x1b[2J\\x1b[Hb\\x9b2Jc\\x0dd');
  });

  it('leaves no control character but newline and tab', () => {
    const out = terminalSafe(CONTROLS.join('x'));
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.match(/\\x[0-9a-f]{2}/g)).toHaveLength(CONTROLS.length);
  });

  it('keeps newlines, tabs and non-ASCII text as they are', () => {
    const text = 'Release payment-service 1.4.0 → 2.0.0\n\tNode.js 24 ✓ — déjà vu 日本語';
    expect(terminalSafe(text)).toBe(text);
  });
});

describe('terminalJson', () => {
  it('is the same JSON value with no raw control character, C1 and DEL included', () => {
    const value = { question: `x${OSC52}${CSI_CLEAR}\x9b31m\x7f\u0085`, nested: [{ text: '\x90q\x9c' }] };
    const out = terminalJson(value, 2);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(out)).toEqual(value);
    expect(out).toContain('\\u009b31m');
  });

  it('is byte for byte JSON.stringify when there is nothing to escape', () => {
    const value = { a: 'plain → text', b: [1, 2, { c: null }] };
    expect(terminalJson(value)).toBe(JSON.stringify(value));
    expect(terminalJson(value, 2)).toBe(JSON.stringify(value, null, 2));
  });
});

describe('terminalSafeLogFunction', () => {
  it('writes the SDK log line with the message and its metadata escaped', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      terminalSafeLogFunction({
        level: 'WARN',
        message: `Activity failed: agent said ${CSI_CLEAR}`,
        meta: { error: `boom${OSC52}` },
        timestampNanos: 1_700_000_000_000_000_000n,
      });
      const line = String(write.mock.calls[0]?.[0]);
      expect(line).toMatch(/^2023-11-14T22:13:20.000Z \[WARN\] Activity failed: agent said \\x1b\[2J/);
      expect(line.toLowerCase()).toContain('boom\\x1b]52;c;');
      expect(line.slice(0, -1)).not.toMatch(RAW_CONTROL);
    } finally {
      write.mockRestore();
    }
  });
});
