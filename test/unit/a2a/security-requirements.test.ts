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

  it("reads a card written in the JS SDK's internal form ($case oneofs) like the wire form", () => {
    const sdkForm = card(
      {
        bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } } },
        oa: {
          scheme: {
            $case: 'oauth2SecurityScheme',
            value: { flows: { flow: { $case: 'clientCredentials', value: { tokenUrl: 'https://login.example/t' } } } },
          },
        },
      },
      [req('bearer'), req('oa')],
    );
    expect(sdkForm.securitySchemes?.bearer).toEqual({ httpAuthSecurityScheme: { scheme: 'Bearer' } });
    expect(meetRequirements(sdkForm, { bearer: true }, 'a bearer token')).toEqual({
      ok: true,
      chosen: { description: 'scheme "bearer" (HTTP Bearer)' },
    });
    expect(meetRequirements(sdkForm, { oauth2: true }, 'oauth').ok).toBe(true);
    expect(meetRequirements(sdkForm, {}, 'no credentials').ok).toBe(false);
  });

  it("meets a scheme it cannot read with the entry's credential, naming it for a warning; never without one", () => {
    const c = card({ future: { quantumSecurityScheme: { level: 9 } }, key: schemes.key }, [req('future')]);
    expect(meetRequirements(c, { bearer: true }, 'a bearer token')).toEqual({
      ok: true,
      chosen: { description: 'scheme "future" (of a kind this client does not know)' },
      unreadable: ['future'],
    });
    expect(meetRequirements(c, {}, 'no credentials')).toMatchObject({ ok: false });
    // A scheme it can read still needs the matching credential.
    expect(meetRequirements(card({ key: schemes.key }, [req('key')]), { bearer: true }, 'a bearer token').ok).toBe(
      false,
    );
  });
});
