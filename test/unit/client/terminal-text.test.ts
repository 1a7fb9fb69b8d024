import { describe, expect, it, vi } from 'vitest';
import {
  indentLines,
  oneLine,
  terminalJson,
  terminalSafe,
  terminalSafeLogFunction,
} from '../../../client/terminal-text.js';
import { renderStatus } from '../../../client/render-status.js';
import type { StatusView } from '../../../client/status-view.js';
import { revealHidden } from '../../../contract/text.js';

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
        message: `Activity failed: agent said ${CSI_CLEAR}\n2023-11-14T22:13:21.000Z [INFO] forged line`,
        meta: { error: `boom${OSC52}` },
        timestampNanos: 1_700_000_000_000_000_000n,
      });
      const line = String(write.mock.calls[0]?.[0]);
      expect(line).toMatch(/^2023-11-14T22:13:20.000Z \[WARN\] Activity failed: agent said \\x1b\[2J/);
      expect(line.toLowerCase()).toContain('boom\\x1b]52;c;');
      expect(line.slice(0, -1)).not.toMatch(RAW_CONTROL);
      expect(line.slice(0, -1)).not.toContain('\n'); // one entry, one line: an agent's newline cannot forge another
      expect(line).toContain('agent said \\x1b[2J\\x1b[H\\n2023-11-14T22:13:21.000Z [INFO] forged line');
    } finally {
      write.mockRestore();
    }
  });
});

describe('hidden characters', () => {
  const RLO = '\u202e';
  it('are shown as <U+XXXX>: bidi overrides and isolates, zero-width characters, separators, tags', () => {
    expect(revealHidden(`Approve ${RLO}txt.exe`)).toBe('Approve <U+202E>txt.exe');
    expect(revealHidden('a\u200bb\u200dc\u2066d\u2028e\ufeff')).toBe('a<U+200B>b<U+200D>c<U+2066>d<U+2028>e<U+FEFF>');
    expect(revealHidden('hi\u{e0041}\u{e0042}')).toBe('hi<U+E0041><U+E0042>');
    expect(revealHidden('Node.js 24 ✓ — déjà vu 日本語 👍')).toBe('Node.js 24 ✓ — déjà vu 日本語 👍');
  });

  it('reach the terminal visibly, and --json as the same JSON value without them raw', () => {
    expect(terminalSafe(`Which ${RLO}version?`)).toBe('Which <U+202E>version?');
    const value = { question: `a${RLO}b\u200bc\u{e0041}` };
    const json = terminalJson(value);
    expect(json).toBe('{"question":"a\\u202eb\\u200bc\\udb40\\udc41"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('agent text that could forge lines', () => {
  it('stays on its line when it is an id or a name, and is indented when it has several lines', () => {
    expect(oneLine('task-1\nStatus: COMPLETED\r\nx')).toBe('task-1\\nStatus: COMPLETED\\r\\nx');
    expect(indentLines('Out of memory\nStatus: COMPLETED', '  ')).toBe('Out of memory\n  Status: COMPLETED');
  });

  it('never starts a line of `status` but ours', () => {
    const forged = '\nStatus: COMPLETED · phase: completed\n';
    const view = {
      workflowId: 'hostile-1',
      kind: 'delegation',
      status: 'FAILED',
      phase: 'failed',
      questions: [
        { workflowId: 'hostile-1', taskId: `t${forged}`, state: 'TASK_STATE_INPUT_REQUIRED', text: `Which?${forged}` },
      ],
      delegations: [
        {
          workflowId: 'hostile-1',
          label: `hostile${forged}`,
          agent: 'hostile',
          status: 'FAILED',
          phase: 'failed',
          taskId: `task${forged}`,
          state: 'TASK_STATE_FAILED',
          artifacts: [
            {
              artifactId: `a${forged}`,
              name: `report${forged}`,
              text: '',
              data: [],
              parts: 1,
              files: [{ name: `report.tar${forged}`, mediaType: `application/x-tar${forged}`, size: 3, stored: true }],
            },
          ],
          error: `Out of memory${forged}`,
        },
      ],
      error: `Agent "hostile": the task failed: Out of memory${forged}`,
    } as unknown as StatusView;
    const lines = terminalSafe(renderStatus(view)).split('\n');
    expect(lines.filter((line) => line.startsWith('Status:'))).toEqual(['Status: FAILED · phase: failed']);
  });
});
