import { describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard } from '../../../a2a/index.js';
import { NoUsableInterfaceError } from '../../../a2a/errors.js';
import { createTransport } from '../../../a2a/client.js';
import { HttpClient } from '../../../a2a/http.js';
import { HttpJsonTransport } from '../../../a2a/http-json-transport.js';
import { JsonRpcTransport } from '../../../a2a/json-rpc-transport.js';
import { LegacyHttpJsonTransport } from '../../../a2a/v0-3/http-json-transport.js';
import { LegacyJsonRpcTransport } from '../../../a2a/v0-3/json-rpc-transport.js';
import { CAPTURED_V03_HYBRID_CARD } from './fixtures/wire-captures.js';

describe('createA2AClient', () => {
  it('uses the best interface of the card by default, and an explicit endpoint when given', () => {
    const card = parseAgentCard(CAPTURED_V03_HYBRID_CARD);
    expect(createA2AClient({ card }).endpoint).toEqual({
      url: 'http://127.0.0.1:41241/a2a/rest',
      binding: 'HTTP+JSON',
      protocolVersion: '1.0',
    });
    const endpoint = {
      url: 'http://127.0.0.1:41241/a2a/jsonrpc',
      binding: 'JSONRPC' as const,
      protocolVersion: '0.3' as const,
    };
    const client = createA2AClient({ card, endpoint });
    expect(client.endpoint).toBe(endpoint);
    expect(client.card).toBe(card);
  });

  it('picks the transport by binding and protocol version', () => {
    const http = new HttpClient();
    const make = (binding: 'HTTP+JSON' | 'JSONRPC', protocolVersion: '1.0' | '0.3') =>
      createTransport({ endpoint: { url: 'http://a', binding, protocolVersion }, http });
    expect(make('HTTP+JSON', '1.0')).toBeInstanceOf(HttpJsonTransport);
    expect(make('JSONRPC', '1.0')).toBeInstanceOf(JsonRpcTransport);
    expect(make('HTTP+JSON', '0.3')).toBeInstanceOf(LegacyHttpJsonTransport);
    expect(make('JSONRPC', '0.3')).toBeInstanceOf(LegacyJsonRpcTransport);
  });

  it('is the transport of its interface, plus the card and endpoint it was made from', () => {
    const card = parseAgentCard(CAPTURED_V03_HYBRID_CARD);
    const client = createA2AClient({ card });
    expect(client).toBeInstanceOf(HttpJsonTransport);
    expect(client).toMatchObject({ card, endpoint: { binding: 'HTTP+JSON', protocolVersion: '1.0' } });
  });

  it('refuses a card without a usable interface', () => {
    const card = parseAgentCard({
      name: 'g',
      supportedInterfaces: [
        { url: 'g:443', protocolBinding: 'https://bindings.example/carrier-pigeon', protocolVersion: '1.0' },
      ],
    });
    expect(() => createA2AClient({ card })).toThrow(NoUsableInterfaceError);
  });
});
