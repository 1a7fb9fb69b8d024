import { describe, expect, it, vi } from 'vitest';
import { ResponseTooLargeError } from '../../../a2a/errors.js';
import { TURN_EVERY_BYTES } from '../../../a2a/loop-turns.js';
import { SseLineParser, readSseEvents, type SseEvent } from '../../../a2a/sse.js';

async function* chunks(...parts: Array<string | Uint8Array>): AsyncGenerator<string | Uint8Array> {
  for (const part of parts) yield part;
}

async function read(...parts: Array<string | Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(chunks(...parts))) events.push(event);
  return events;
}

describe('readSseEvents', () => {
  it('yields one event per blank-line-terminated block', async () => {
    expect(await read('data: {"a":1}\n\ndata: {"b":2}\n\n')).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: '{"b":2}' },
    ]);
  });

  it('reassembles lines split across chunks, even inside the field name', async () => {
    expect(await read('da', 'ta: {"a"', ':1}', '\n', '\nd', 'ata: 2\n\n')).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: '2' },
    ]);
  });

  it('reassembles a multi-byte character split between byte chunks', async () => {
    const bytes = new TextEncoder().encode('data: Grüße ✓\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside "ü"
    expect(await read(bytes.slice(0, cut), bytes.slice(cut))).toEqual([{ event: 'message', data: 'Grüße ✓' }]);
  });

  it('accepts CRLF, CR and LF line ends, including a CRLF split between chunks', async () => {
    expect(await read('data: a\r', '\n\r', '\ndata: b\r\rdata: c\n\n')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('joins multi-line data with newlines', async () => {
    expect(await read('data: {"a":\ndata: 1}\ndata:\n\n')).toEqual([{ event: 'message', data: '{"a":\n1}\n' }]);
  });

  it('reports comments to onComment and never yields them', async () => {
    const comments: string[] = [];
    const events: SseEvent[] = [];
    for await (const e of readSseEvents(chunks(': keep-alive\n\n:x\ndata: 1\n\n'), {
      onComment: (c) => comments.push(c),
    })) {
      events.push(e);
    }
    expect(comments).toEqual(['keep-alive', 'x']);
    expect(events).toEqual([{ event: 'message', data: '1' }]);
  });

  it('reads event, id and retry fields; the id sticks to later events', async () => {
    expect(await read('event: error\nid: 7\nretry: 1500\ndata: {"error":{}}\n\ndata: next\n\n')).toEqual([
      { event: 'error', data: '{"error":{}}', id: '7', retry: 1500 },
      { event: 'message', data: 'next', id: '7', retry: 1500 },
    ]);
  });

  it('strips only one leading space and ignores unknown fields and non-numeric retry', async () => {
    expect(await read('data:  two spaces\nfoo: bar\nretry: soon\ndata:none\n\n')).toEqual([
      { event: 'message', data: ' two spaces\nnone' },
    ]);
  });

  it('does not dispatch a block without data, and resets its event type', async () => {
    expect(await read('event: error\n\ndata: plain\n\n')).toEqual([{ event: 'message', data: 'plain' }]);
  });

  it('dispatches a last event that is not followed by a blank line when the stream ends', async () => {
    expect(await read('data: 1\n\ndata: 2')).toEqual([
      { event: 'message', data: '1' },
      { event: 'message', data: '2' },
    ]);
    expect(await read('data: 3\r')).toEqual([{ event: 'message', data: '3' }]);
  });

  it('ends cleanly on an empty stream', async () => {
    expect(await read()).toEqual([]);
  });

  it('skips a leading byte-order mark', async () => {
    expect(await read(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: x\n\n')]))).toEqual([
      { event: 'message', data: 'x' },
    ]);
  });

  it('parses every SDK stream capture delivered one byte at a time', async () => {
    const body = 'data: {"result":{"task":{"id":"T"}}}\n\ndata: {"result":{"statusUpdate":{}}}\n\n';
    const events = await read(...body.split(''));
    expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { result: { task: { id: 'T' } } },
      { result: { statusUpdate: {} } },
    ]);
  });
});

describe('readSseEvents beside the rest of the process', () => {
  it('gives the event loop a turn while it reads chunks that are already buffered', async () => {
    // 64 events of 64 KiB, all at hand: read without a turn, they would hold the loop to the end.
    const event = `data: "${'x'.repeat(64 * 1024)}"\n\n`;
    let read = 0;
    let readWhenTheLoopTurned: number | undefined;
    setImmediate(() => (readWhenTheLoopTurned = read));
    for await (const _ of readSseEvents(chunks(...Array.from({ length: 64 }, () => event)))) read += 1;
    expect(read).toBe(64);
    expect(readWhenTheLoopTurned).toBeLessThanOrEqual(TURN_EVERY_BYTES / (64 * 1024));
  });

  it('gives the event loop turns inside one chunk of megabytes (all a fast producer buffered)', async () => {
    const events = 32;
    const event = `data: "${'x'.repeat(128 * 1024)}"\n\n`;
    const chunk = new TextEncoder().encode(event.repeat(events)); // 4 MiB at once
    let read = 0;
    const readAtTurns: number[] = [];
    const turn = () => {
      readAtTurns.push(read);
      if (read < events) setImmediate(turn);
    };
    setImmediate(turn);
    for await (const _ of readSseEvents(chunks(chunk))) read += 1;
    expect(read).toBe(events);
    // A turn at least every TURN_EVERY_BYTES: never more events between two turns than fit in it.
    const most = Math.max(...readAtTurns.map((n, i) => n - (readAtTurns[i - 1] ?? 0)));
    expect(readAtTurns.length).toBeGreaterThanOrEqual(chunk.length / TURN_EVERY_BYTES - 1);
    expect(most).toBeLessThanOrEqual(TURN_EVERY_BYTES / (128 * 1024) + 1);
  });
});

describe('readSseEvents within its caps', () => {
  it('throws at the byte that makes a line longer than maxLineBytes, and pulls no further chunk', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<string> {
      yield 'data: ';
      for (;;) {
        pulled += 1;
        yield 'x'.repeat(1000);
      }
    }
    const reading = (async () => {
      for await (const _ of readSseEvents(endless(), { maxLineBytes: 10_000 })) {
        /* nothing arrives */
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(reading).rejects.toMatchObject({ limit: 'maxSseLineBytes', max: 10_000 });
    expect(pulled).toBe(10);
  });

  it('throws when the data of one event passes maxEventBytes, whatever its line count', async () => {
    const lines = 'data: 0123456789\n'.repeat(100);
    await expect(
      (async () => {
        for await (const _ of readSseEvents(chunks(lines), { maxEventBytes: 500, maxLineBytes: 100 })) {
          /* never dispatched */
        }
      })(),
    ).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE', limit: 'maxSseEventBytes' });
    // The count starts again with each event.
    expect(await read('data: 0123456789\n\n'.repeat(100))).toHaveLength(100);
  });

  it('looks at each byte of an unterminated 100 MB line once, however it is chunked', () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    const parser = new SseLineParser({ maxLineBytes: 1024 * 1024 * 1024 });
    const scanned = { bytes: 0 };
    const indexOf = Uint8Array.prototype.indexOf;
    const spy = vi.spyOn(Uint8Array.prototype, 'indexOf').mockImplementation(function (
      this: Uint8Array,
      value: number,
      from?: number,
    ) {
      scanned.bytes += this.length - (from ?? 0);
      return indexOf.call(this, value, from);
    });
    try {
      parser.push('data: ');
      const chunks = (100 * 1024 * 1024) / chunk.length;
      for (let i = 0; i < chunks; i++) expect(parser.push(chunk)).toEqual([]);
      // Two searches (CR, LF) per chunk over the chunk alone: 200 MB, not the 5 TB of a rescan.
      expect(scanned.bytes).toBeLessThanOrEqual(2 * (100 * 1024 * 1024 + 6));
    } finally {
      spy.mockRestore();
    }
  });
});
