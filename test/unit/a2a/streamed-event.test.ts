/**
 * An SSE event too large to hold, read as it arrives (a2a/streamed-event.ts, a2a/spilled-bytes.ts):
 * file bytes to a spill, the rest assembled and bounded, however the bytes are cut.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponseError, ResponseTooLargeError } from '../../../a2a/errors.js';
import { legacyEventToV1 } from '../../../a2a/v0-3/to-v1.js';
import { spilledBytesOf, type SpilledBytes } from '../../../a2a/spilled-bytes.js';
import { readSseEvents, type SseEvent } from '../../../a2a/sse.js';
import { StreamedEventReader, type StreamedEvent } from '../../../a2a/streamed-event.js';
import type { Part } from '../../../a2a/index.js';

const CAP = 1024;
const made: StreamedEventReader[] = [];
afterEach(() => {
  for (const reader of made.splice(0)) reader.dispose();
});

function reader(maxBytes = 1 << 20, maxTextBytes = 1 << 20): StreamedEventReader {
  const r = new StreamedEventReader({
    maxBytes,
    maxTextBytes,
    tooMuchText: () => new ResponseTooLargeError({ limit: 'maxDelegationBytes', max: maxTextBytes }),
    maxRemainderBytes: CAP,
    maxDepth: 16,
    tooLarge: () => new ResponseTooLargeError({ limit: 'maxDelegationStoredBytes', max: maxBytes }),
    tooLargeEvent: () => new ResponseTooLargeError({ limit: 'maxSseEventBytes', max: CAP }),
    invalid: (problem) => new InvalidResponseError(problem, {}),
    notJson: () => new InvalidResponseError('not JSON', {}),
  });
  made.push(r);
  return r;
}

/** The SSE text cut into pieces of `size` bytes (the last one shorter). */
async function* cut(text: string | Buffer, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function events(text: string | Buffer, size: number, maxBytes?: number): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  const options = { maxLineBytes: CAP, maxEventBytes: CAP, oversized: () => reader(maxBytes) };
  for await (const event of readSseEvents(cut(text, size), options)) out.push(event);
  return out;
}

async function bytesOf(spilled: SpilledBytes): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of spilled.read()) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** Deterministic bytes that do not repeat. */
function file(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  for (let at = 0, i = 0; at < size; at += 32, i++) createHash('sha256').update(`${seed}${i}`).digest().copy(out, at);
  return out;
}
const a = file(3000, 'a');
const b = file(1001, 'b');
const shortSha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** A 1.0 task snapshot with two file parts and a text part, keys in protobuf JSON order (raw before filename). */
const snapshot = {
  task: {
    id: 'T',
    contextId: 'C',
    status: { state: 'TASK_STATE_WORKING' },
    artifacts: [
      {
        artifactId: 'release',
        name: 'Release "archive" \u00e9\u2603',
        parts: [
          { raw: a.toString('base64'), filename: 'a.bin', mediaType: 'application/octet-stream' },
          { text: 'line 1\nline "2" \\ \u00e9 \ud83d\ude00' },
          { raw: b.toString('base64'), filename: 'b.bin' },
        ],
      },
    ],
  },
};

describe('an oversized stream event read as it arrives', () => {
  it('spills file bytes and text and assembles the rest exactly, whatever the chunk boundaries', async () => {
    // The text's emoji also as JSON escapes (a surrogate pair the tokenizer unescapes one half at a time).
    const json = JSON.stringify(snapshot).replace('\ud83d\ude00', '\\ud83d\\ude00');
    expect(JSON.parse(json)).toEqual(snapshot);
    const text = `event: message\ndata: ${json}\n\n`;
    const utf8 = Buffer.from(snapshot.task.artifacts[0]!.parts[1]!.text!, 'utf8');
    for (const size of [1, 2, 3, 5, 7, 64, 1000, text.length]) {
      const [event] = await events(text, size);
      const { json, spill } = event!.streamed as StreamedEvent;
      const expected = structuredClone(snapshot);
      expected.task.artifacts[0]!.parts[0]!.raw = '';
      expected.task.artifacts[0]!.parts[1]!.text = '';
      expected.task.artifacts[0]!.parts[2]!.raw = '';
      expect(json, `pieces of ${size}`).toEqual(expected);
      const task = (json as typeof snapshot).task;
      spill.attach(task as never);
      const [first, second, third] = task.artifacts[0]!.parts as Part[];
      expect(spilledBytesOf(first!)).toMatchObject({ size: a.length, sha: shortSha(a) });
      expect(await bytesOf(spilledBytesOf(first!)!)).toEqual(a);
      expect(spilledBytesOf(second!), `pieces of ${size}`).toMatchObject({ size: utf8.length, sha: shortSha(utf8) });
      expect(await bytesOf(spilledBytesOf(second!)!)).toEqual(utf8);
      expect(await bytesOf(spilledBytesOf(third!)!)).toEqual(b);
      expect(JSON.stringify(task)).not.toContain('spilled');
    }
  });

  it('streams a data line longer than the line cap, and joins several data lines with LF', async () => {
    const json = JSON.stringify(snapshot);
    const half = json.indexOf('"status"');
    const text = `data:${json.slice(0, half)}\r\ndata:\r\ndata: ${json.slice(half)}\r\n\r\ndata: {"next":1}\n\n`;
    const [first, second] = await events(text, 13);
    expect(((first!.streamed as StreamedEvent).json as typeof snapshot).task.status).toEqual(snapshot.task.status);
    expect(second).toEqual({ event: 'message', data: '{"next":1}' });
  });

  it('reads the shapes of every binding: JSON-RPC 1.0 and 0.3, an artifact update, URL-safe and unpadded base64', async () => {
    const bytes = file(2000, 'c');
    const urlSafe = bytes.toString('base64url');
    const v03 = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        kind: 'artifact-update',
        taskId: 'T',
        contextId: 'C',
        artifact: { artifactId: 'x', parts: [{ kind: 'file', file: { bytes: urlSafe, name: 'c.bin' } }] },
      },
    };
    const [event] = await events(`data: ${JSON.stringify(v03)}\n\n`, 10);
    const { json, spill } = event!.streamed as StreamedEvent;
    const decoded = legacyEventToV1((json as typeof v03).result, { what: 'stream event' });
    expect('artifactUpdate' in decoded.response).toBe(true);
    const artifact = (decoded.response as { artifactUpdate: { artifact: { parts: Part[] } } }).artifactUpdate.artifact;
    spill.attach(undefined, artifact);
    expect(artifact.parts[0]).toMatchObject({ raw: '', filename: 'c.bin' });
    expect(await bytesOf(spilledBytesOf(artifact.parts[0]!)!)).toEqual(bytes);

    const rpc = { jsonrpc: '2.0', id: 2, result: { task: snapshot.task } };
    const [again] = await events(`data: ${JSON.stringify(rpc)}\n\n`, 100);
    const parts = ((again!.streamed as StreamedEvent).json as typeof rpc).result.task.artifacts[0]!.parts;
    expect(parts.map((p) => ('raw' in p ? p.raw : p.text))).toEqual(['', '', '']);
  });

  it('keeps the event cap on everything that is not file bytes', async () => {
    const long = { task: { id: 'T', status: { state: 'TASK_STATE_WORKING', note: 'x'.repeat(CAP * 4) } } };
    await expect(events(`data: ${JSON.stringify(long)}\n\n`, 50)).rejects.toMatchObject({ limit: 'maxSseEventBytes' });
    // File bytes outside an artifact (a status message's part) are an ordinary string: too large.
    const outside = { task: { id: 'T', status: { message: { parts: [{ raw: a.toString('base64') }] } } } };
    await expect(events(`data: ${JSON.stringify(outside)}\n\n`, 50)).rejects.toMatchObject({
      limit: 'maxSseEventBytes',
    });
    const wrapped = { x: { y: { task: snapshot.task } } };
    await expect(events(`data: ${JSON.stringify(wrapped)}\n\n`, 50)).rejects.toBeInstanceOf(ResponseTooLargeError);
    // Broken JSON that passes the cap fails with the cap, as a held event did.
    await expect(events(`data: ${'x'.repeat(CAP * 3)}\n\n`, 50)).rejects.toMatchObject({ limit: 'maxSseEventBytes' });
    // Whitespace counts.
    await expect(events(`data: {${' '.repeat(CAP * 2)}\n\n`, 50)).rejects.toMatchObject({ limit: 'maxSseEventBytes' });
  });

  it("bounds an artifact's text by the delegation's byte budget, or by the event cap when none is given", async () => {
    const log = (chars: number) => ({
      artifactUpdate: {
        taskId: 'T',
        contextId: 'C',
        artifact: { artifactId: 'log', parts: [{ text: 'y'.repeat(chars) }] },
      },
    });
    const readWith = async (maxTextBytes: number | undefined, chars: number) => {
      const options = {
        maxLineBytes: CAP,
        maxEventBytes: CAP,
        oversized: () => {
          const r = new StreamedEventReader({
            maxBytes: 1 << 20,
            maxRemainderBytes: CAP,
            maxDepth: 16,
            ...(maxTextBytes !== undefined
              ? {
                  maxTextBytes,
                  tooMuchText: () => new ResponseTooLargeError({ limit: 'maxDelegationBytes', max: maxTextBytes }),
                }
              : {}),
            tooLarge: () => new ResponseTooLargeError({ limit: 'maxDelegationStoredBytes', max: 1 << 20 }),
            tooLargeEvent: () => new ResponseTooLargeError({ limit: 'maxSseEventBytes', max: CAP }),
            invalid: (problem) => new InvalidResponseError(problem, {}),
            notJson: () => new InvalidResponseError('not JSON', {}),
          });
          made.push(r);
          return r;
        },
      };
      const out: SseEvent[] = [];
      for await (const event of readSseEvents(cut(`data: ${JSON.stringify(log(chars))}\n\n`, 100), options))
        out.push(event);
      return out;
    };
    const [spilled] = await readWith(CAP * 8, CAP * 4);
    expect((spilled!.streamed as StreamedEvent).json).toEqual(log(0));
    await expect(readWith(CAP * 8, CAP * 9)).rejects.toMatchObject({ limit: 'maxDelegationBytes' });
    // Without a budget for text (a stream with no store), text is held and counts as the rest.
    await expect(readWith(undefined, CAP * 4)).rejects.toMatchObject({ limit: 'maxSseEventBytes' });
  });

  it('refuses hostile shapes with typed failures', async () => {
    const deep = `data: {"task":{"artifacts":[{"parts":[{"raw":"${a.toString('base64')}"}]}]},"x":${'['.repeat(40)}\n\n`;
    await expect(events(deep, 64)).rejects.toThrow('nested deeper than 16 levels');
    const notBase64 = JSON.stringify({ task: { artifacts: [{ parts: [{ raw: `${a.toString('base64')}!!` }] }] } });
    await expect(events(`data: ${notBase64}\n\n`, 64)).rejects.toThrow('not base64');
    const padded = JSON.stringify({ task: { artifacts: [{ parts: [{ raw: `QQ==${a.toString('base64')}` }] }] } });
    await expect(events(`data: ${padded}\n\n`, 64)).rejects.toBeInstanceOf(InvalidResponseError);
    // The same key twice could swap a spilled string for another value.
    const twice = `data: {"task":{"artifacts":[{"parts":[{"raw":"${a.toString('base64')}","raw":""}]}]}}\n\n`;
    await expect(events(twice, 64)).rejects.toThrow('the same key twice');
    const broken = `data: {"task":{"artifacts":[{"parts":[{"raw":"${a.toString('base64')}"}]]}}\n\n`;
    await expect(events(broken, 64)).rejects.toThrow('not JSON');
    // More file bytes than the delegation may store.
    await expect(events(`data: ${JSON.stringify(snapshot)}\n\n`, 64, 1000)).rejects.toMatchObject({
      limit: 'maxDelegationStoredBytes',
    });
    // An error event is never routed.
    await expect(events(`event: error\ndata: ${JSON.stringify(snapshot)}\n\n`, 64)).rejects.toMatchObject({
      limit: 'maxSseEventBytes',
    });
  });

  it('reads an event below the caps as it arrives from oversizedFromBytes on, and a smaller one as usual', async () => {
    const text = `data: ${JSON.stringify(snapshot)}\n\ndata: {"small":true}\n\n`;
    const options = {
      maxLineBytes: 1 << 20,
      maxEventBytes: 1 << 20,
      oversizedFromBytes: CAP,
      oversized: () => reader(),
    };
    const out: SseEvent[] = [];
    for await (const event of readSseEvents(cut(text, 100), options)) out.push(event);
    expect((out[0]!.streamed as StreamedEvent).json).toMatchObject({ task: { id: 'T' } });
    expect(out[1]).toEqual({ event: 'message', data: '{"small":true}' });
  });

  it('fails as before without a sink', async () => {
    const out = readSseEvents(cut(`data: ${JSON.stringify(snapshot)}\n\n`, 64), {
      maxLineBytes: CAP,
      maxEventBytes: CAP,
    });
    await expect(
      (async () => {
        for await (const _ of out);
      })(),
    ).rejects.toMatchObject({ limit: 'maxSseLineBytes' });
  });
});
