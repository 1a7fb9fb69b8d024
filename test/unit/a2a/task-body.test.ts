import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient, type CallOptions, type Task } from '../../../a2a/index.js';
import { ResponseTooLargeError } from '../../../a2a/errors.js';
import { spilledBytesOf } from '../../../a2a/spilled-bytes.js';
import { CAPTURED_CARD } from './fixtures/wire-captures.js';
import { JSON_HEADERS, ORIGIN, mockAgent, type MockedAgent } from './helpers/mock-agent.js';

const card = parseAgentCard(CAPTURED_CARD);
const MiB = 1024 * 1024;
/** 9 MiB of file bytes: 12 MiB of base64, past the 8 MiB body cap. */
const FILE = Buffer.alloc(9 * MiB, 7);
const taskWithFile = (raw: string, extra: Record<string, unknown> = {}) => ({
  id: 'T-1',
  contextId: 'C',
  status: { state: 'TASK_STATE_COMPLETED' },
  artifacts: [{ artifactId: 'a', parts: [{ raw, filename: 'big.bin', mediaType: 'application/octet-stream' }] }],
  ...extra,
});

/** The GetTask options of a tracking read: file bytes spilled, their disposals kept. */
function spilling(disposals: (() => void)[]): CallOptions {
  return { fileBytes: { maxBytes: 64 * MiB, fromBytes: 512 * 1024, onSpilled: (dispose) => disposals.push(dispose) } };
}

async function bytesOf(task: Task): Promise<Buffer> {
  const part = task.artifacts![0]!.parts[0]!;
  expect('raw' in part && part.raw).toBe('');
  const pieces: Buffer[] = [];
  for await (const piece of spilledBytesOf(part)!.read()) pieces.push(piece);
  return Buffer.concat(pieces);
}

describe('GetTask bodies past the cap, read as they arrive (CallOptions.fileBytes)', () => {
  let mock: MockedAgent;
  const disposals: (() => void)[] = [];
  beforeEach(() => {
    mock = mockAgent();
    disposals.length = 0;
  });
  afterEach(async () => {
    await mock.close();
  });

  const client = (binding: 'JSONRPC' | 'HTTP+JSON', path: string, protocolVersion: '1.0' | '0.3' = '1.0'): A2AClient =>
    createA2AClient(
      { card, endpoint: { url: `${ORIGIN}${path}`, binding, protocolVersion } },
      { dispatcher: mock.agent },
    );

  it('JSON-RPC: the task comes back with its file spilled, byte-identical, until it is disposed of', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: taskWithFile(FILE.toString('base64')) });
    expect(body.length).toBeGreaterThan(8 * MiB);
    mock.pool.intercept({ path: '/rpc', method: 'POST' }).reply(200, body, JSON_HEADERS);
    const task = await client('JSONRPC', '/rpc').getTask({ id: 'T-1' }, spilling(disposals));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await bytesOf(task)).equals(FILE)).toBe(true);
    expect(disposals).toHaveLength(1);
    disposals[0]!();
    await expect(bytesOf(task)).rejects.toThrow(/ENOENT/);
  });

  it('HTTP+JSON: the task at the root of the body comes back with its file spilled, byte-identical', async () => {
    const body = JSON.stringify(taskWithFile(FILE.toString('base64')));
    mock.pool.intercept({ path: '/rest/tasks/T-1', method: 'GET' }).reply(200, body, JSON_HEADERS);
    const task = await client('HTTP+JSON', '/rest').getTask({ id: 'T-1' }, spilling(disposals));
    expect((await bytesOf(task)).equals(FILE)).toBe(true);
    for (const dispose of disposals) dispose();
  });

  it("JSON-RPC in A2A 0.3: a file part's `file.bytes` is spilled the same way", async () => {
    const file = { bytes: FILE.toString('base64'), name: 'big.bin', mimeType: 'application/octet-stream' };
    const result = {
      kind: 'task',
      id: 'T-1',
      contextId: 'C',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'a', parts: [{ kind: 'file', file }] }],
    };
    mock.pool
      .intercept({ path: '/rpc', method: 'POST' })
      .reply(200, JSON.stringify({ jsonrpc: '2.0', id: 1, result }), JSON_HEADERS);
    const task = await client('JSONRPC', '/rpc', '0.3').getTask({ id: 'T-1' }, spilling(disposals));
    expect((await bytesOf(task)).equals(FILE)).toBe(true);
    for (const dispose of disposals) dispose();
  });

  it('without fileBytes, the same body still fails as too large', async () => {
    const body = JSON.stringify(taskWithFile(FILE.toString('base64')));
    mock.pool.intercept({ path: '/rest/tasks/T-1', method: 'GET' }).reply(200, body, JSON_HEADERS);
    await expect(client('HTTP+JSON', '/rest').getTask({ id: 'T-1' })).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('a body whose bulk is not file bytes fails as too large (maxBodyBytes): the cap holds for all but file bytes', async () => {
    const padding = 'x'.repeat(9 * MiB);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: taskWithFile('AAAA', { metadata: { padding } }) });
    mock.pool.intercept({ path: '/rpc', method: 'POST' }).reply(200, body, JSON_HEADERS);
    const error = await client('JSONRPC', '/rpc')
      .getTask({ id: 'T-1' }, spilling(disposals))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).code).toBe('RESPONSE_TOO_LARGE');
    expect((error as ResponseTooLargeError).limit).toBe('maxBodyBytes');
    expect(disposals).toHaveLength(0);
  });

  it('a small body is read whole as before, with nothing to dispose of', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: taskWithFile('aGVsbG8=') });
    mock.pool.intercept({ path: '/rpc', method: 'POST' }).reply(200, body, JSON_HEADERS);
    const task = await client('JSONRPC', '/rpc').getTask({ id: 'T-1' }, spilling(disposals));
    expect(task.artifacts![0]!.parts[0]).toMatchObject({ raw: 'aGVsbG8=' });
    expect(disposals).toHaveLength(0);
  });
});
