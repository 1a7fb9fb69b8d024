import { describe, expect, it } from 'vitest';
import { parseAgentCard } from '../../../a2a/index.js';
import { meetRequirements } from '../../../a2a/security-requirements.js';

const card = (securitySchemes: Record<string, unknown>, securityRequirements: unknown[]) =>
  parseAgentCard({
    name: 'A',
    supportedInterfaces: [{ url: 'https://a.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    securitySchemes,
    securityRequirements,
  });

const schemes = {
  oa: {
    oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://login.example/token', scopes: {} } } },
  },
  key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
  mtls: { mtlsSecurityScheme: {} },
};
const req = (...names: string[]) => ({ schemes: Object.fromEntries(names.map((n) => [n, { list: ['agents'] }])) });

describe('meetRequirements', () => {
  it('takes cards without requirements, or with an empty alternative, as open', () => {
    expect(meetRequirements(card({}, []), {}, 'no credentials')).toEqual({ ok: true });
    expect(meetRequirements(card(schemes, [req('key'), { schemes: {} }]), {}, 'none')).toEqual({ ok: true });
  });

  it("chooses the first alternative the credentials meet, with the OAuth flow's token endpoint and scopes", () => {
    const verdict = meetRequirements(card(schemes, [req('key', 'mtls'), req('oa')]), { oauth2: true }, 'oauth');
    expect(verdict).toEqual({
      ok: true,
      chosen: {
        description: 'scheme "oa" (OAuth 2.0 clientCredentials)',
        tokenUrl: 'https://login.example/token',
        scopes: ['agents'],
      },
    });
  });

  it('needs every scheme of an alternative, and names all alternatives when none is met', () => {
    const verdict = meetRequirements(
      card(schemes, [req('key', 'mtls'), req('oa')]),
      { apiKey: { name: 'x-api-key', location: 'header' } },
      'an API key X-API-Key in header',
    );
    expect(verdict).toEqual({
      ok: false,
      required:
        'scheme "key" (API key X-API-Key in header) and scheme "mtls" (mutual TLS), or scheme "oa" (OAuth 2.0 clientCredentials)',
      provided: 'an API key X-API-Key in header',
    });
  });

  it('does not take an API key under another name or in another place', () => {
    const c = card(schemes, [req('key')]);
    expect(meetRequirements(c, { apiKey: { name: 'X-Other', location: 'header' } }, '').ok).toBe(false);
    expect(meetRequirements(c, { apiKey: { name: 'X-API-Key', location: 'query' } }, '').ok).toBe(false);
  });
});
