import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../a2a/http.js';
import { OutboundPolicy, bearerAuth } from '../../../a2a/index.js';
import { InterfaceOriginMismatchError, OutboundRefusedError } from '../../../a2a/security-errors.js';
import { isLoopbackHost, publicAddressLookup } from '../../../a2a/outbound-policy.js';

/** A resolver that answers from a table (no DNS is asked). */
const table =
  (answers: Record<string, string[]>) =>
  async (host: string): Promise<string[]> =>
    answers[host] ?? [];

const stranger = (allowPrivate = false, answers: Record<string, string[]> = {}) =>
  new OutboundPolicy({
    origin: 'https://agent.example.com',
    publicAddressesOnly: true,
    allowPrivate,
    resolve: table(answers),
  });

async function refusal(policy: OutboundPolicy, url: string): Promise<string> {
  const err = await policy.check(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(OutboundRefusedError);
  expect((err as OutboundRefusedError).retryable).toBe(false);
  return (err as Error).message;
}

describe('OutboundPolicy for an agent named by URL', () => {
  it('refuses loopback, link-local, metadata, private, unspecified and multicast hosts in every notation', async () => {
    const policy = stranger();
    const cases: Record<string, string> = {
      'https://127.0.0.1/': 'loopback',
      'https://2130706433/': 'loopback', // decimal
      'https://0177.0.0.1/': 'loopback', // octal
      'https://0x7f.1/': 'loopback', // hex, short form
      'https://[::ffff:127.0.0.1]/': 'loopback', // IPv4-mapped IPv6
      'https://[::1]/': 'loopback',
      'https://localhost/': 'loopback',
      'https://api.localhost./': 'loopback',
      'https://169.254.169.254/latest/meta-data/': 'linkLocal', // cloud metadata
      'https://[::ffff:a9fe:a9fe]/': 'linkLocal', // the same, mapped
      'https://2852039166/': 'linkLocal', // the same, decimal
      'https://[fd00:ec2::254]/': 'uniqueLocal', // AWS metadata over IPv6
      'https://[fe80::1]/': 'linkLocal',
      'https://10.0.0.8/': 'private',
      'https://172.16.5.4/': 'private',
      'https://192.168.1.1/': 'private',
      'https://0.0.0.0/': 'unspecified',
      'https://[::]/': 'unspecified',
      'https://224.0.0.1/': 'multicast',
      'https://[ff02::1]/': 'multicast',
      'https://[64:ff9b::a9fe:a9fe]/': 'rfc6052', // NAT64 wrapping the metadata address
    };
    for (const [url, range] of Object.entries(cases))
      expect(await refusal(policy, url), url).toContain(`may not reach a ${range} address`);
  });

  it('refuses a host name that resolves to a refused address, and names the address', async () => {
    const policy = stranger(false, { 'metadata.attacker.example': ['93.184.216.34', '169.254.169.254'] });
    expect(await refusal(policy, 'https://metadata.attacker.example/')).toContain(
      'linkLocal address (it resolves to 169.254.169.254)',
    );
  });

  it('allows public addresses, and private ranges only with allowPrivate', async () => {
    const resolve = { 'agents.example.com': ['93.184.216.34'] };
    await expect(stranger(false, resolve).check('https://agents.example.com/a2a')).resolves.toBeDefined();
    await expect(stranger(false).check('https://8.8.8.8/')).resolves.toBeDefined();
    expect(await refusal(stranger(false), 'https://10.1.2.3/')).toContain('A2A_ALLOW_PRIVATE_AGENT_URLS=true');
    await expect(stranger(true).check('https://10.1.2.3/')).resolves.toBeDefined();
    await expect(stranger(true).check('https://[fd12::1]/')).resolves.toBeDefined();
    // allowPrivate is not "allow everything": loopback and metadata stay refused.
    expect(await refusal(stranger(true), 'https://127.0.0.1/')).toContain('loopback');
    expect(await refusal(stranger(true), 'https://169.254.169.254/')).toContain('linkLocal');
  });
});

describe('OutboundPolicy for every agent', () => {
  const entry = new OutboundPolicy({ origin: 'http://127.0.0.1:4000', allowOrigins: ['https://api.example.com'] });

  it('refuses file:, unix: and other schemes, and user info, before anything is sent', async () => {
    expect(await refusal(entry, 'file:///etc/passwd')).toContain('it is a file: URL');
    expect(await refusal(entry, 'unix:/var/run/docker.sock')).toContain('it is a unix: URL');
    expect(await refusal(entry, 'http://user:pw@127.0.0.1:4000/a2a')).toContain('user info');
    expect(await refusal(entry, 'not a url')).toContain('not a valid URL');
  });

  it('refuses plain http to a host that is not loopback unless allowInsecure', async () => {
    expect(await refusal(entry, 'http://agents.example.com/a2a')).toContain('"allowInsecure": true');
    await expect(entry.check('http://127.0.0.1:4000/a2a')).resolves.toEqual({ credentials: true });
    await expect(entry.check('http://localhost:4000/a2a')).resolves.toEqual({ credentials: false });
    const insecure = new OutboundPolicy({ origin: 'http://agents.internal', allowInsecure: true });
    await expect(insecure.check('http://agents.internal/a2a')).resolves.toEqual({ credentials: true });
  });

  it('sends credentials only to the card origin and the allow-listed origins', async () => {
    await expect(entry.check('https://api.example.com/v1')).resolves.toEqual({ credentials: true });
    await expect(entry.check('https://elsewhere.example.com/')).resolves.toEqual({ credentials: false });
  });

  it('accepts interfaces on the card origin or an allow-listed one, and names both origins otherwise', () => {
    const card = 'http://127.0.0.1:4000/.well-known/agent-card.json';
    expect(() => entry.checkInterface('http://127.0.0.1:4000/a2a/rest', card)).not.toThrow();
    expect(() => entry.checkInterface('https://api.example.com/a2a', card)).not.toThrow();
    for (const [url, shown] of [
      ['http://localhost:4000/a2a', 'http://localhost:4000'],
      ['http://2130706434:4000/a2a', 'http://127.0.0.2:4000'],
      ['file:///etc/passwd', 'a file: URL'],
      ['http://[::ffff:127.0.0.1]:4000/', 'http://[::ffff:7f00:1]:4000'],
    ]) {
      let err: unknown;
      try {
        entry.checkInterface(url!, card);
      } catch (e) {
        err = e;
      }
      expect(err, url).toBeInstanceOf(InterfaceOriginMismatchError);
      expect((err as Error).message).toContain(`at ${shown}, another origin`);
      expect((err as Error).message).toContain('http://127.0.0.1:4000');
      expect((err as InterfaceOriginMismatchError).code).toBe('INTERFACE_ORIGIN_MISMATCH');
    }
  });

  it('is applied by HttpClient before every request: refused ones never reach the network, others lose the credential', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect(); // a request that got past the policy to an unmocked host would fail differently
    const seen: Array<string | undefined> = [];
    mock
      .get('https://elsewhere.example.com')
      .intercept({ path: '/x' })
      .reply(200, (opts) => {
        seen.push((opts.headers as Record<string, string>).authorization);
        return 'ok';
      });
    const http = new HttpClient({ dispatcher: mock, auth: bearerAuth('secret-token-1'), policy: entry });
    const res = await http.unary({ method: 'GET', url: 'https://elsewhere.example.com/x', headers: {}, context: {} });
    expect(res.status).toBe(200);
    expect(seen).toEqual([undefined]);
    await expect(
      http.unary({ method: 'GET', url: 'http://user:pw@127.0.0.1:4000/', headers: {}, context: {} }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
    await mock.close();
  });
});

describe('isLoopbackHost', () => {
  it('knows localhost names and loopback addresses, and nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'a.localhost', '127.0.0.1', '127.9.9.9', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['localhost.example.com', '10.0.0.1', 'example.com', '[::2]'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('publicAddressLookup', () => {
  it('refuses, at connect time, a host that resolves to a refused address (what DNS rebinding would exploit)', async () => {
    const server = createServer((_req, res) => res.end('should not be reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const pool = new Agent({ connect: { lookup: publicAddressLookup(true) } });
    const http = new HttpClient({ dispatcher: pool }); // no policy: only the pool's own lookup stands in the way
    try {
      const err = await http
        .unary({ method: 'GET', url: `http://localhost:${port}/`, headers: {}, context: { operation: 'GetAgentCard' } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundRefusedError);
      expect((err as Error).message).toMatch(
        /may not reach a loopback address \(localhost resolves to (127\.0\.0\.1|::1)\)/,
      );
    } finally {
      await pool.close();
      server.close();
    }
  });
});
