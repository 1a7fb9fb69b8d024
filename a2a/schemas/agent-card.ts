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
  /** The extension's identifier, a URI. */
  uri: z.string(),
  /** What the extension does, as the agent describes it. */
  description: z.string().optional(),
  /** Whether a client must support the extension to talk to this agent. */
  required: z.boolean().optional(),
  /** The extension's own settings, as the agent declares them. */
  params: MetadataSchema.optional(),
});
/** An extension of the protocol an agent declares on its card. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentExtension extends z.infer<typeof AgentExtensionWire> {}
export const AgentExtensionSchema: z.ZodType<AgentExtension> = AgentExtensionWire;

const AgentCapabilitiesWire = wireObject({
  /** Whether the agent streams (SendStreamingMessage, SubscribeToTask). */
  streaming: z.boolean().optional(),
  /** Whether the agent delivers push notifications to a webhook. */
  pushNotifications: z.boolean().optional(),
  /** Whether an authenticated client may read a fuller card (GetExtendedAgentCard). */
  extendedAgentCard: z.boolean().optional(),
  /** The protocol extensions the agent supports. */
  extensions: z.array(AgentExtensionSchema).optional(),
});
/** What an agent card says the agent can do: streaming, push notifications, the extended card. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentCapabilities extends z.infer<typeof AgentCapabilitiesWire> {}
export const AgentCapabilitiesSchema: z.ZodType<AgentCapabilities> = AgentCapabilitiesWire;

const SecurityRequirementWire = wireObject({
  /** Scheme name → the scopes it needs (`list`); every scheme named here is needed together. */
  schemes: z
    .record(
      z.string(),
      wireObject({
        /** The scopes (OAuth) or roles the scheme needs; empty when it needs none. */
        list: StringListSchema.default([]),
      }),
    )
    .default({}),
});
/** `{"schemes":{"oidc":{"list":["openid"]}}}`: all schemes of one entry are needed together. See [docs/configuration.md](../../docs/configuration.md#agents-and-credentials). */
export interface SecurityRequirement extends z.infer<typeof SecurityRequirementWire> {}
export const SecurityRequirementSchema: z.ZodType<SecurityRequirement> = SecurityRequirementWire;

const AgentSkillWire = wireObject({
  /** The skill's identifier, unique within the card. */
  id: z.string(),
  /** The skill's name for people. */
  name: z.string(),
  /** What the skill does. */
  description: z.string().default(''),
  /** Keywords that describe the skill. */
  tags: StringListSchema.default([]),
  /** Example prompts the skill handles. */
  examples: StringListSchema.optional(),
  /** Media types the skill accepts, where they differ from the card's defaults. */
  inputModes: StringListSchema.optional(),
  /** Media types the skill returns, where they differ from the card's defaults. */
  outputModes: StringListSchema.optional(),
  /** What a client must present to use this skill, where it differs from the card. */
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});
/** A skill an agent card lists. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentSkill extends z.infer<typeof AgentSkillWire> {}
export const AgentSkillSchema: z.ZodType<AgentSkill> = AgentSkillWire;

const AgentProviderWire = wireObject({
  /** The provider's web site. */
  url: z.string().default(''),
  /** The provider's name. */
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
  /** An API key in a header, query parameter or cookie. */
  apiKeySecurityScheme: wireObject({
    /** Where the key goes: `header`, `query` or `cookie`. */
    location: z.string(),
    /** The header, parameter or cookie that carries the key. */
    name: z.string(),
    /** What the scheme is for, as the agent describes it. */
    description: z.string().optional(),
  }).optional(),
  /** HTTP authentication (RFC 9110), usually `Bearer`. */
  httpAuthSecurityScheme: wireObject({
    /** The HTTP authentication scheme, e.g. `Bearer` or `Basic`. */
    scheme: z.string(),
    /** A hint at the bearer token's format, e.g. `JWT`. */
    bearerFormat: z.string().optional(),
    /** What the scheme is for, as the agent describes it. */
    description: z.string().optional(),
  }).optional(),
  /** OAuth 2.0; we use its client-credentials flow. */
  oauth2SecurityScheme: wireObject({
    /** The OAuth flows the agent accepts, with their endpoints and scopes. */
    flows: OAuthFlowsSchema.default({}),
    /** Where the authorization server's metadata (RFC 8414) is published. */
    oauth2MetadataUrl: z.string().optional(),
    /** What the scheme is for, as the agent describes it. */
    description: z.string().optional(),
  }).optional(),
  /** OpenID Connect, discovered from the issuer's configuration. */
  openIdConnectSecurityScheme: wireObject({
    /** The issuer's `.well-known/openid-configuration` URL. */
    openIdConnectUrl: z.string(),
    /** What the scheme is for, as the agent describes it. */
    description: z.string().optional(),
  }).optional(),
  /** Mutual TLS: the client presents a certificate. */
  mtlsSecurityScheme: wireObject({
    /** What the scheme is for, as the agent describes it. */
    description: z.string().optional(),
  }).optional(),
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
  /** The JWS protected header, base64url-encoded (it names the algorithm and the key). */
  protected: z.string(),
  /** The JWS signature, base64url-encoded. */
  signature: z.string(),
  /** The JWS unprotected header; never trusted for the algorithm. */
  header: MetadataSchema.optional(),
});
/** A JWS signature over an agent card. See [docs/security.md](../../docs/security.md). */
export interface AgentCardSignature extends z.infer<typeof AgentCardSignatureWire> {}
export const AgentCardSignatureSchema: z.ZodType<AgentCardSignature> = AgentCardSignatureWire;

const AgentCardWire = wireObject({
  /** The agent's name. */
  name: z.string({ error: 'expected the agent name' }),
  /** What the agent does. */
  description: z.string().default(''),
  /** The agent's own version, not the protocol's. */
  version: z.string().default(''),
  /** Where the agent listens; the first is the one it prefers. */
  supportedInterfaces: z
    .array(AgentInterfaceSchema, { error: 'expected a list of interfaces' })
    .min(1, { error: 'must list at least one interface' }),
  /** Who runs the agent. */
  provider: AgentProviderSchema.optional(),
  /** Where the agent's documentation is. */
  documentationUrl: z.string().optional(),
  /** The agent's icon. */
  iconUrl: z.string().optional(),
  /** What the agent can do: streaming, push notifications, the extended card. */
  capabilities: AgentCapabilitiesSchema.default({}),
  /** Scheme name → how to authenticate with it. */
  securitySchemes: z.record(z.string(), SecuritySchemeSchema).optional(),
  /** Which schemes a client must present; any one entry is enough. */
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
  /** Media types the agent accepts unless a skill says otherwise. */
  defaultInputModes: StringListSchema.default([]),
  /** Media types the agent returns unless a skill says otherwise. */
  defaultOutputModes: StringListSchema.default([]),
  /** What the agent offers to do. */
  skills: z.array(AgentSkillSchema).default([]),
  /** JWS signatures over the card (verified when the registry names a key). */
  signatures: z.array(AgentCardSignatureSchema).optional(),
});
/** An A2A agent card: who the agent is, where and how to reach it, and what it can do. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface AgentCard extends z.infer<typeof AgentCardWire> {}
export const AgentCardSchema: z.ZodType<AgentCard> = AgentCardWire;
