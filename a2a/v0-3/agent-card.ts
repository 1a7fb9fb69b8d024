/**
 * A 0.3 agent card → the 1.0 card shape (before validation).
 *
 * 0.3 cards name one `url` with its `preferredTransport` (default `JSONRPC`) plus
 * `additionalInterfaces: [{url, transport}]`, and one card-wide `protocolVersion` ("0.3.0");
 * 1.0 lists `supportedInterfaces: [{url, protocolBinding, protocolVersion}]`. Security
 * schemes move from `{type:"apiKey",in,name}` to oneof wrappers (`apiKeySecurityScheme`…),
 * `security` becomes `securityRequirements`, `supportsAuthenticatedExtendedCard` becomes
 * `capabilities.extendedAgentCard`.
 */

import { isRecord } from '../json-record.js';

/** "0.3.0" → "0.3"; "1.0" → "1.0"; anything unparsable is returned trimmed. */
export function majorMinor(version: string): string {
  const match = /^\s*(\d+)(?:\.(\d+))?/.exec(version);
  if (!match) return version.trim();
  return `${Number(match[1])}.${Number(match[2] ?? 0)}`;
}

/** True for a card that has no 1.0 `supportedInterfaces` but a 0.3 `url`. */
export function isLegacyCard(json: unknown): json is Record<string, unknown> {
  if (!isRecord(json)) return false;
  const interfaces = json.supportedInterfaces ?? json.supported_interfaces;
  return (!Array.isArray(interfaces) || interfaces.length === 0) && typeof json.url === 'string';
}

function securityScheme(scheme: unknown): unknown {
  if (!isRecord(scheme) || typeof scheme.type !== 'string') return scheme;
  const description = typeof scheme.description === 'string' ? { description: scheme.description } : {};
  switch (scheme.type) {
    case 'apiKey':
      return { apiKeySecurityScheme: { location: scheme.in, name: scheme.name, ...description } };
    case 'http':
      return {
        httpAuthSecurityScheme: {
          scheme: scheme.scheme,
          ...(typeof scheme.bearerFormat === 'string' ? { bearerFormat: scheme.bearerFormat } : {}),
          ...description,
        },
      };
    case 'oauth2':
      return {
        oauth2SecurityScheme: {
          flows: scheme.flows ?? {},
          ...(typeof scheme.oauth2MetadataUrl === 'string' ? { oauth2MetadataUrl: scheme.oauth2MetadataUrl } : {}),
          ...description,
        },
      };
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: { openIdConnectUrl: scheme.openIdConnectUrl, ...description } };
    case 'mutualTLS':
      return { mtlsSecurityScheme: { ...description } };
    default:
      return {};
  }
}

/** `[{"oauth":["read"]}]` → `[{"schemes":{"oauth":{"list":["read"]}}}]` */
function securityRequirements(security: unknown): unknown {
  if (!Array.isArray(security)) return undefined;
  return security.map((entry) =>
    isRecord(entry)
      ? {
          schemes: Object.fromEntries(
            Object.entries(entry).map(([name, scopes]) => [name, { list: Array.isArray(scopes) ? scopes : [] }]),
          ),
        }
      : entry,
  );
}

/** Converts a 0.3 card to the 1.0 JSON shape; leaves everything it does not know alone. */
export function legacyCardToV1(card: Record<string, unknown>): Record<string, unknown> {
  const version = majorMinor(typeof card.protocolVersion === 'string' ? card.protocolVersion : '0.3');
  const interfaces: Array<{ url: unknown; protocolBinding: unknown; protocolVersion: string }> = [
    {
      url: card.url,
      protocolBinding: typeof card.preferredTransport === 'string' ? card.preferredTransport : 'JSONRPC',
      protocolVersion: version,
    },
  ];
  if (Array.isArray(card.additionalInterfaces)) {
    for (const extra of card.additionalInterfaces) {
      if (!isRecord(extra)) continue;
      const duplicate = interfaces.some((i) => i.url === extra.url && i.protocolBinding === extra.transport);
      if (!duplicate) interfaces.push({ url: extra.url, protocolBinding: extra.transport, protocolVersion: version });
    }
  }
  const capabilities = isRecord(card.capabilities) ? { ...card.capabilities } : {};
  delete capabilities.stateTransitionHistory;
  if (typeof card.supportsAuthenticatedExtendedCard === 'boolean') {
    capabilities.extendedAgentCard = card.supportsAuthenticatedExtendedCard;
  }
  const out: Record<string, unknown> = {
    ...card,
    supportedInterfaces: interfaces,
    capabilities,
  };
  for (const key of [
    'url',
    'preferredTransport',
    'additionalInterfaces',
    'protocolVersion',
    'supportsAuthenticatedExtendedCard',
    'security',
  ]) {
    delete out[key];
  }
  if (isRecord(card.securitySchemes)) {
    out.securitySchemes = Object.fromEntries(
      Object.entries(card.securitySchemes).map(([k, v]) => [k, securityScheme(v)]),
    );
  }
  const requirements = securityRequirements(card.security);
  if (requirements) out.securityRequirements = requirements;
  if (Array.isArray(card.skills)) {
    out.skills = card.skills.map((skill) => {
      if (!isRecord(skill) || !('security' in skill)) return skill;
      const { security, ...rest } = skill;
      return { ...rest, securityRequirements: securityRequirements(security) };
    });
  }
  return out;
}
