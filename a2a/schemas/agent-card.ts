/**
 * `AgentCard` (A2A 1.0 §1, §8): who the agent is, where it listens (`supportedInterfaces`,
 * first = preferred), what it can do and how to authenticate.
 *
 * Lenient where interop needs it: the official SDK serves the card with plain
 * `JSON.stringify`, so empty strings and arrays do appear (`"tenant":""`, `"extensions":[]`),
 * and cards in the wild omit fields the spec marks required (`description`, `version`, modes).
 * Strict where we depend on it: `name` and at least one interface with url, binding and version.
 */
import { z } from 'zod';
import { MetadataSchema, StringListSchema, StringMapSchema, wireObject } from './json.js';

/** The longest interface URL accepted (browsers and proxies commonly stop near here). */
export const MAX_INTERFACE_URL_LENGTH = 2048;

export const AgentInterfaceSchema = wireObject({
  /** An HTTPS URL (or `host:port` for gRPC), at most 2,048 characters (it is recorded in history). */
  url: z
    .string({ error: 'expected a URL' })
    .min(1, { error: 'must not be empty' })
    .max(MAX_INTERFACE_URL_LENGTH, { error: `must be at most ${MAX_INTERFACE_URL_LENGTH} characters` }),
  /** Open string: `JSONRPC`, `GRPC`, `HTTP+JSON`, or a URI for a custom binding. */
  protocolBinding: z
    .string({ error: 'expected a binding name such as HTTP+JSON' })
    .min(1, { error: 'must not be empty' }),
  /** `Major.Minor`, e.g. "1.0" or "0.3". */
  protocolVersion: z.string({ error: 'expected a version such as "1.0"' }).min(1, { error: 'must not be empty' }),
  /** If set, copied into every request (REST path prefix, JSON-RPC `tenant` param). */
  tenant: z.string().optional(),
});
export type AgentInterface = z.infer<typeof AgentInterfaceSchema>;

export const AgentExtensionSchema = wireObject({
  uri: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: MetadataSchema.optional(),
});
export type AgentExtension = z.infer<typeof AgentExtensionSchema>;

export const AgentCapabilitiesSchema = wireObject({
  streaming: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  extendedAgentCard: z.boolean().optional(),
  extensions: z.array(AgentExtensionSchema).optional(),
});
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;

/** `{"schemes":{"oidc":{"list":["openid"]}}}`: all schemes of one entry are needed together. */
export const SecurityRequirementSchema = wireObject({
  schemes: z.record(z.string(), wireObject({ list: StringListSchema.default([]) })).default({}),
});
export type SecurityRequirement = z.infer<typeof SecurityRequirementSchema>;

export const AgentSkillSchema = wireObject({
  id: z.string(),
  name: z.string(),
  description: z.string().default(''),
  tags: StringListSchema.default([]),
  examples: StringListSchema.optional(),
  inputModes: StringListSchema.optional(),
  outputModes: StringListSchema.optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});
export type AgentSkill = z.infer<typeof AgentSkillSchema>;

export const AgentProviderSchema = wireObject({
  url: z.string().default(''),
  organization: z.string().default(''),
});
export type AgentProvider = z.infer<typeof AgentProviderSchema>;

const OAuthFlowSchema = wireObject({
  authorizationUrl: z.string().optional(),
  deviceAuthorizationUrl: z.string().optional(),
  tokenUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: StringMapSchema.default({}),
  pkceRequired: z.boolean().optional(),
});

/** One flow per scheme (a oneof in 1.0); `implicit` and `password` are deprecated but still parsed. */
export const OAuthFlowsSchema = wireObject({
  authorizationCode: OAuthFlowSchema.optional(),
  clientCredentials: OAuthFlowSchema.optional(),
  deviceCode: OAuthFlowSchema.optional(),
  implicit: OAuthFlowSchema.optional(),
  password: OAuthFlowSchema.optional(),
});

/**
 * A security scheme is a oneof wrapper in 1.0:
 * `{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}`,
 * `{"httpAuthSecurityScheme":{"scheme":"Bearer"}}`, `{"oauth2SecurityScheme":{…}}`,
 * `{"openIdConnectSecurityScheme":{…}}`, `{"mtlsSecurityScheme":{}}`.
 */
export const SecuritySchemeSchema = wireObject({
  apiKeySecurityScheme: wireObject({
    location: z.string(),
    name: z.string(),
    description: z.string().optional(),
  }).optional(),
  httpAuthSecurityScheme: wireObject({
    scheme: z.string(),
    bearerFormat: z.string().optional(),
    description: z.string().optional(),
  }).optional(),
  oauth2SecurityScheme: wireObject({
    flows: OAuthFlowsSchema.default({}),
    oauth2MetadataUrl: z.string().optional(),
    description: z.string().optional(),
  }).optional(),
  openIdConnectSecurityScheme: wireObject({
    openIdConnectUrl: z.string(),
    description: z.string().optional(),
  }).optional(),
  mtlsSecurityScheme: wireObject({ description: z.string().optional() }).optional(),
});
export type SecurityScheme = z.infer<typeof SecuritySchemeSchema>;

export const AgentCardSignatureSchema = wireObject({
  protected: z.string(),
  signature: z.string(),
  header: MetadataSchema.optional(),
});
export type AgentCardSignature = z.infer<typeof AgentCardSignatureSchema>;

export const AgentCardSchema = wireObject({
  name: z.string({ error: 'expected the agent name' }),
  description: z.string().default(''),
  /** The agent's own version, not the protocol's. */
  version: z.string().default(''),
  supportedInterfaces: z
    .array(AgentInterfaceSchema, { error: 'expected a list of interfaces' })
    .min(1, { error: 'must list at least one interface' }),
  provider: AgentProviderSchema.optional(),
  documentationUrl: z.string().optional(),
  iconUrl: z.string().optional(),
  capabilities: AgentCapabilitiesSchema.default({}),
  securitySchemes: z.record(z.string(), SecuritySchemeSchema).optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
  defaultInputModes: StringListSchema.default([]),
  defaultOutputModes: StringListSchema.default([]),
  skills: z.array(AgentSkillSchema).default([]),
  signatures: z.array(AgentCardSignatureSchema).optional(),
});
export type AgentCard = z.infer<typeof AgentCardSchema>;
