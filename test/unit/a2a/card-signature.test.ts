import { createPublicKey } from 'node:crypto';
import { generateAgentCardSignature } from '@a2a-js/sdk';
import { exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseAgentCard, type AgentCard } from '../../../a2a/index.js';
import { CardSignatureError } from '../../../a2a/security-errors.js';
import { verifyCardSignature } from '../../../a2a/card-signature.js';

/** A card as the SDK's sample agents serve it (empty strings and lists included). */
const served = {
  name: 'Signed Agent',
  description: 'Checks signatures.',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'https://agent.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
  ],
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'], examples: [], securityRequirements: [] }],
  signatures: [],
};

async function signedBySdk() {
  const keys = await generateKeyPair('ES256', { extractable: true });
  const sign = generateAgentCardSignature(keys.privateKey, { alg: 'ES256', kid: 'k1', typ: 'JOSE' });
  const card = (await sign(served as never)) as unknown as typeof served;
  return { card, publicKey: createPublicKey(await exportSPKI(keys.publicKey)), jwk: await exportJWK(keys.publicKey) };
}

const parse = (json: unknown): AgentCard => parseAgentCard(json);

describe('verifyCardSignature', () => {
  it("verifies a card signed by the official SDK's generateAgentCardSignature, by key or by JWKS", async () => {
    const { card, publicKey, jwk } = await signedBySdk();
    expect(card.signatures).toHaveLength(1);
    expect(await verifyCardSignature(parse(card), publicKey, { require: true })).toBe('verified');
    const jwks = { jwks: { keys: [{ ...jwk, kid: 'k1', alg: 'ES256' }] } };
    expect(await verifyCardSignature(parse(card), jwks, { require: true })).toBe('verified');
  });

  it('refuses a card changed after it was signed, and one checked with another key', async () => {
    const { card, publicKey } = await signedBySdk();
    const tampered = {
      ...card,
      supportedInterfaces: [{ ...card.supportedInterfaces[0]!, url: 'https://evil.example/' }],
    };
    await expect(verifyCardSignature(parse(tampered), publicKey, { require: false })).rejects.toThrow(
      /carries a signature that does not verify \(ERR_JWS_SIGNATURE_VERIFICATION_FAILED\)/,
    );
    const other = await signedBySdk();
    const err = await verifyCardSignature(parse(card), other.publicKey, { require: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardSignatureError);
    expect((err as CardSignatureError).code).toBe('CARD_SIGNATURE_INVALID');
  });

  it('accepts an unsigned card unless a signature is required', async () => {
    const { publicKey } = await signedBySdk();
    expect(await verifyCardSignature(parse(served), publicKey, { require: false })).toBe('unsigned');
    const err = await verifyCardSignature(parse(served), publicKey, { require: true }).catch((e: unknown) => e);
    expect((err as CardSignatureError).code).toBe('CARD_NOT_SIGNED');
  });

  it('refuses a signature whose algorithm is named only in the unprotected header', async () => {
    const keys = await generateKeyPair('ES256', { extractable: true });
    const sign = generateAgentCardSignature(keys.privateKey, { typ: 'JOSE' }, { alg: 'ES256' });
    const card = (await sign(served as never)) as unknown as typeof served;
    const publicKey = createPublicKey(await exportSPKI(keys.publicKey));
    await expect(verifyCardSignature(parse(card), publicKey, { require: true })).rejects.toThrow(
      /does not verify \(alg is not in the protected header\)/,
    );
  });

  it('tries every key of a JWKS that matches a signature without kid (a key rotation)', async () => {
    const old = await generateKeyPair('ES256', { extractable: true });
    const current = await generateKeyPair('ES256', { extractable: true });
    const card = (await generateAgentCardSignature(current.privateKey, { alg: 'ES256', typ: 'JOSE' })(
      served as never,
    )) as unknown as typeof served;
    const keys = [await exportJWK(old.publicKey), await exportJWK(current.publicKey)];
    expect(await verifyCardSignature(parse(card), { jwks: { keys } }, { require: true })).toBe('verified');
    // Neither key of another set verifies it.
    const stranger = await generateKeyPair('ES256', { extractable: true });
    const other = { keys: [await exportJWK(old.publicKey), await exportJWK(stranger.publicKey)] };
    await expect(verifyCardSignature(parse(card), { jwks: other }, { require: true })).rejects.toThrow(
      /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/,
    );
  });
});
