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

const AgentInterfaceWire = wireObject({
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
/** One interface an agent card offers: URL, binding and protocol version. See [docs/grpc.md](../../docs/grpc.md#choosing-an-interface). */
export interface AgentInterface extends z.infer<typeof AgentInterfaceWire> {}
export const AgentInterfaceSchema: z.ZodType<AgentInterface> = AgentInterfaceWire;

const AgentExtensionWire = wireObject({
  uri: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: MetadataSchema.optional(),
});
/** An extension of the protocol an agent declares on its card. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentExtension extends z.infer<typeof AgentExtensionWire> {}
export const AgentExtensionSchema: z.ZodType<AgentExtension> = AgentExtensionWire;

const AgentCapabilitiesWire = wireObject({
  streaming: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  extendedAgentCard: z.boolean().optional(),
  extensions: z.array(AgentExtensionSchema).optional(),
});
/** What an agent card says the agent can do: streaming, push notifications, the extended card. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentCapabilities extends z.infer<typeof AgentCapabilitiesWire> {}
export const AgentCapabilitiesSchema: z.ZodType<AgentCapabilities> = AgentCapabilitiesWire;

const SecurityRequirementWire = wireObject({
  schemes: z.record(z.string(), wireObject({ list: StringListSchema.default([]) })).default({}),
});
/** `{"schemes":{"oidc":{"list":["openid"]}}}`: all schemes of one entry are needed together. See [docs/configuration.md](../../docs/configuration.md#agents-and-credentials). */
export interface SecurityRequirement extends z.infer<typeof SecurityRequirementWire> {}
export const SecurityRequirementSchema: z.ZodType<SecurityRequirement> = SecurityRequirementWire;

const AgentSkillWire = wireObject({
  id: z.string(),
  name: z.string(),
  description: z.string().default(''),
  tags: StringListSchema.default([]),
  examples: StringListSchema.optional(),
  inputModes: StringListSchema.optional(),
  outputModes: StringListSchema.optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});
/** A skill an agent card lists. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentSkill extends z.infer<typeof AgentSkillWire> {}
export const AgentSkillSchema: z.ZodType<AgentSkill> = AgentSkillWire;

const AgentProviderWire = wireObject({
  url: z.string().default(''),
  organization: z.string().default(''),
});
/** Who provides an agent, as its card says. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentProvider extends z.infer<typeof AgentProviderWire> {}
export const AgentProviderSchema: z.ZodType<AgentProvider> = AgentProviderWire;

const OAuthFlowWire = wireObject({
  authorizationUrl: z.string().optional(),
  deviceAuthorizationUrl: z.string().optional(),
  tokenUrl: z.string().optional(),
  refreshUrl: z.string().optional(),
  scopes: StringMapSchema.default({}),
  pkceRequired: z.boolean().optional(),
});
interface OAuthFlow extends z.infer<typeof OAuthFlowWire> {}
const OAuthFlowSchema: z.ZodType<OAuthFlow> = OAuthFlowWire;

const OAuthFlowsWire = wireObject({
  authorizationCode: OAuthFlowSchema.optional(),
  clientCredentials: OAuthFlowSchema.optional(),
  deviceCode: OAuthFlowSchema.optional(),
  implicit: OAuthFlowSchema.optional(),
  password: OAuthFlowSchema.optional(),
});
/** One flow per scheme (a oneof in 1.0); `implicit` and `password` are deprecated but still parsed. */
interface OAuthFlows extends z.infer<typeof OAuthFlowsWire> {}
const OAuthFlowsSchema: z.ZodType<OAuthFlows> = OAuthFlowsWire;

const SecuritySchemeWire = wireObject({
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
/**
 * A security scheme is a oneof wrapper in 1.0:
 * `{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}`,
 * `{"httpAuthSecurityScheme":{"scheme":"Bearer"}}`, `{"oauth2SecurityScheme":{…}}`,
 * `{"openIdConnectSecurityScheme":{…}}`, `{"mtlsSecurityScheme":{}}`.
 * See [docs/configuration.md](../../docs/configuration.md#agents-and-credentials).
 */
export interface SecurityScheme extends z.infer<typeof SecuritySchemeWire> {}
export const SecuritySchemeSchema: z.ZodType<SecurityScheme> = SecuritySchemeWire;

const AgentCardSignatureWire = wireObject({
  protected: z.string(),
  signature: z.string(),
  header: MetadataSchema.optional(),
});
/** A JWS signature over an agent card. See [docs/security.md](../../docs/security.md). */
export interface AgentCardSignature extends z.infer<typeof AgentCardSignatureWire> {}
export const AgentCardSignatureSchema: z.ZodType<AgentCardSignature> = AgentCardSignatureWire;

const AgentCardWire = wireObject({
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
/** An A2A agent card: who the agent is, where and how to reach it, and what it can do. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentCard extends z.infer<typeof AgentCardWire> {}
export const AgentCardSchema: z.ZodType<AgentCard> = AgentCardWire;
