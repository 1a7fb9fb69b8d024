/**
 * The codec server over HTTP, with real payloads: the claims and encrypted payloads of a real
 * workflow's history on the dev server, and the `temporal` CLI as a client.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Payload } from '@temporalio/common';
import proto from '@temporalio/proto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedBlobPath, startCodecServer, type RunningCodecServer } from '../../../storage/codec-server.js';
import { AesGcmCodec, encryptedStack } from '../../helpers/encryption-codec.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporalTest = useTemporal();
const root = mkdtempSync(join(tmpdir(), 'a2a-codec-'));
const { store } = testBlobStore(join(root, 'blobs'));
const codec = new AesGcmCodec('codec server test');
const TOKEN = 'codec-test-token-0123456789';
const UI_ORIGIN = 'http://127.0.0.1:8233';
const PayloadProto = proto.temporal.api.common.v1.Payload;
const text = `codec-marker ${'x'.repeat(300_000)}`;

let codecServer: RunningCodecServer;
let workflowId: string;
/** The workflow's result and input in history: a claim, and the encrypted (inline) workflow input of a small run. */
let claim: Payload;
let inlineEncrypted: Payload;

type WirePayload = { metadata?: Record<string, string>; data?: string };
const toWire = (p: Payload): WirePayload =>
  PayloadProto.toObject(PayloadProto.create(p), { bytes: String, longs: String }) as WirePayload;
const dataOf = (p: WirePayload) => Buffer.from(p.data ?? '', 'base64').toString();
const metaOf = (p: WirePayload, key: string) => Buffer.from(p.metadata?.[key] ?? '', 'base64').toString();

async function post(path: string, payloads: unknown[], headers: Record<string, string> = {}) {
  const res = await request(`${codecServer.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify({ payloads }),
  });
  const body = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    body,
    payloads: res.statusCode === 200 ? (JSON.parse(body) as { payloads: WirePayload[] }).payloads : [],
  };
}

beforeAll(async () => {
  codecServer = await startCodecServer(
    { store, codecs: [codec], token: TOKEN, corsOrigins: [UI_ORIGIN], maxBodyBytes: 1024 * 1024 },
    { port: 0 },
  );
  const taskQueue = uniqueTaskQueue('codec');
  const { base, client, worker } = await encryptedStack(temporalTest, store, codec, taskQueue);
  workflowId = taskQueue;
  await worker.runUntil(async () => {
    await client.workflow.execute('largeRoundTrip', { taskQueue, workflowId, args: [text] });
    await client.workflow.execute('largeRoundTrip', { taskQueue, workflowId: `${workflowId}-small`, args: ['small'] });
  });
  const resultOf = async (id: string) => {
    const history = await base.workflow.getHandle(id).fetchHistory();
    return history.events!.at(-1)!.workflowExecutionCompletedEventAttributes!.result!.payloads![0]!;
  };
  claim = (await resultOf(workflowId)) as Payload;
  inlineEncrypted = (await resultOf(`${workflowId}-small`)) as Payload;
});

afterAll(async () => {
  await codecServer?.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

describe('codec server', () => {
  it('decodes a claim from history into the value, and inline encrypted payloads too', async () => {
    const { status, payloads } = await post('/decode', [toWire(claim), toWire(inlineEncrypted)]);
    expect(status).toBe(200);
    expect(metaOf(payloads[0]!, 'encoding')).toBe('json/plain');
    expect(JSON.parse(dataOf(payloads[0]!))).toEqual({ length: text.length, text: text.toUpperCase() });
    expect(JSON.parse(dataOf(payloads[1]!))).toEqual({ length: 5, text: 'SMALL' });
  });

  it('leaves claims as they are with preserveStorageRefs=true, and resolves them through /download', async () => {
    const preserved = await post('/decode?preserveStorageRefs=true', [toWire(claim), toWire(inlineEncrypted)]);
    expect(preserved.payloads[0]).toEqual(toWire(claim));
    expect(JSON.parse(dataOf(preserved.payloads[1]!))).toEqual({ length: 5, text: 'SMALL' });
    const downloaded = await post('/download', [toWire(claim)]);
    expect(JSON.parse(dataOf(downloaded.payloads[0]!)).length).toBe(text.length);
    const refused = await post('/download', [toWire(inlineEncrypted)]);
    expect(refused.status).toBe(400);
    expect(refused.body).toBe('All payloads must be storage references.');
  });

  it('encodes: the codec, then a claim for a payload of at least the threshold', async () => {
    const big = {
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from(JSON.stringify('y'.repeat(300_000))).toString('base64'),
    };
    const small = { metadata: big.metadata, data: Buffer.from('"hi"').toString('base64') };
    const encoded = await post('/encode', [big, small]);
    expect(encoded.status).toBe(200);
    expect(metaOf(encoded.payloads[0]!, 'messageType')).toBe('temporal.api.sdk.v1.ExternalStorageReference');
    expect(metaOf(encoded.payloads[1]!, 'encoding')).toBe('binary/encrypted');
    const decoded = await post('/decode', encoded.payloads);
    expect(decoded.payloads).toEqual([big, small]);
  });

  it('answers the UI’s preflight before authentication, for its origin only', async () => {
    const preflight = await request(`${codecServer.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        origin: UI_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-namespace',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-Namespace');
    const foreign = await request(`${codecServer.url}/decode`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const decoded = await post('/decode', [toWire(inlineEncrypted)], { origin: UI_ORIGIN });
    expect(decoded.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
  });

  it('needs the token, in the header or as the first path segment', async () => {
    expect((await post('/decode', [toWire(inlineEncrypted)], { authorization: 'Bearer wrong' })).status).toBe(401);
    const noHeader = await request(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"payloads":[]}',
    });
    expect(noHeader.statusCode).toBe(401);
    expect(await noHeader.body.text()).toContain('A2A_CODEC_TOKEN');
    const inPath = await post(`/${TOKEN}/decode`, [toWire(inlineEncrypted)], { authorization: '' });
    expect(inPath.status).toBe(200);
    expect((await request(`${codecServer.url}/healthz`)).statusCode).toBe(200);
  });

  it('refuses what it cannot serve with a status and one sentence', async () => {
    const missing = PayloadProto.create({
      ...claim,
      data: Buffer.from(
        JSON.stringify({ driverName: 'a2a-temporal-blobs', claimData: { key: `sha256:${'cd'.repeat(32)}` } }),
      ),
    });
    const notFound = await post('/decode', [toWire(missing as Payload)]);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toContain(`sha256:${'cd'.repeat(32)}`);
    const foreign = PayloadProto.create({
      ...claim,
      data: Buffer.from(JSON.stringify({ driverName: 'aws.s3driver', claimData: { key: 'x' } })),
    });
    expect((await post('/decode', [toWire(foreign as Payload)])).body).toContain('resolves only a2a-temporal-blobs');
    const traversal = PayloadProto.create({
      ...claim,
      data: Buffer.from(JSON.stringify({ driverName: 'a2a-temporal-blobs', claimData: { key: '../../etc/passwd' } })),
    });
    expect((await post('/decode', [toWire(traversal as Payload)])).status).toBe(400);
    expect((await post('/decode', [{ data: 'x'.repeat(2 * 1024 * 1024) }])).status).toBe(413);
    const malformed = await request(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: '{not json',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('serves a stored file by key, with the token or a signed link, as an attachment', async () => {
    const blob = await store.put(Buffer.from('<html><script>alert(1)</script></html>'));
    const signed = signedBlobPath(
      TOKEN,
      { key: blob.key, name: '../../evil name.html', mediaType: 'text/html' },
      new Date(Date.now() + 60_000),
    );
    const res = await request(`${codecServer.url}${signed}`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toContain('alert(1)');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="evil_name.html"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const expired = signedBlobPath(TOKEN, { key: blob.key }, new Date(Date.now() - 1_000));
    expect((await request(`${codecServer.url}${expired}`)).statusCode).toBe(401);
    const forged = signed.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await request(`${codecServer.url}${forged}`)).statusCode).toBe(401);
    const withHeader = await request(`${codecServer.url}/blobs/${blob.key}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(withHeader.statusCode).toBe(200);
    await withHeader.body.text();
  });

  it('decodes for the temporal CLI (--codec-endpoint, --codec-auth)', async () => {
    const { stdout } = await promisify(execFile)(
      temporalTest.server.cliPath,
      [
        'workflow',
        'result',
        '--workflow-id',
        workflowId,
        '--address',
        temporalTest.server.address,
        '--codec-endpoint',
        codecServer.url,
        '--codec-auth',
        `Bearer ${TOKEN}`,
        '--output',
        'json',
      ],
      { maxBuffer: 16 << 20 },
    );
    expect(stdout).toContain('CODEC-MARKER');
  });
});
