import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonLogFunction, logFormat } from '../../../client/log-format.js';

describe('the worker log format', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is text by default, json on request, and refuses anything else', () => {
    expect(logFormat({})).toBe('text');
    expect(logFormat({ A2A_LOG_FORMAT: 'JSON' })).toBe('json');
    expect(() => logFormat({ A2A_LOG_FORMAT: 'xml' })).toThrow(/A2A_LOG_FORMAT is invalid/);
  });

  it('writes one JSON object per line with the workflow and trace ids, terminal safe', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    jsonLogFunction({
      level: 'WARN',
      message: 'agent said \u009b2J\nhi',
      timestampNanos: 1_700_000_000_000_000_000n,
      meta: { workflowId: 'release-x/compat', trace_id: 'abc', attempt: 2n, error: new Error('boom') },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(lines[0]!.slice(0, -1)).not.toContain('\n');
    expect(lines[0]).not.toContain('\u009b');
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '2023-11-14T22:13:20.000Z',
      level: 'WARN',
      message: 'agent said \u009b2J\nhi',
      workflowId: 'release-x/compat',
      trace_id: 'abc',
      attempt: '2',
      error: { name: 'Error', message: 'boom' },
    });
  });
});
