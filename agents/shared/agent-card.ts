import { A2A_PROTOCOL_VERSION } from '@a2a-js/sdk';
import type { AgentCard, AgentInterface, AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

/** Mount points of the two HTTP bindings every sample agent serves. */
export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

/** The bindings a sample agent can list in its card. */
export type AgentBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** What a sample agent's card lists unless told otherwise (gRPC is a switch: `bindings`). */
export const DEFAULT_AGENT_BINDINGS: readonly AgentBinding[] = ['JSONRPC', 'HTTP+JSON'];

/** What a sample agent says about itself; the server adds interfaces and capabilities. */
export interface AgentDescription {
  name: string;
  description: string;
  version: string;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: SkillDescription[];
}

export type SkillDescription = Pick<AgentSkill, 'id' | 'name' | 'description' | 'tags'> & Partial<AgentSkill>;

/**
 * The agent card for an agent bound at `baseUrl`: by default JSON-RPC first (the SDK client's
 * default choice), then HTTP+JSON, both protocol 1.0; `bindings` chooses which interfaces it
 * lists and in which order (gRPC at `grpcAddress`, `host:port`). With `legacy` each HTTP binding
 * is mirrored as a 0.3 interface at the same URL (the SDK routes by the `A2A-Version` header).
 */
export function buildAgentCard(
  description: AgentDescription,
  baseUrl: string,
  legacy: boolean,
  bindings: readonly AgentBinding[] = DEFAULT_AGENT_BINDINGS,
  grpcAddress?: string,
): AgentCard {
  const urls: Record<AgentBinding, string | undefined> = {
    JSONRPC: `${baseUrl}${JSONRPC_PATH}`,
    'HTTP+JSON': `${baseUrl}${REST_PATH}`,
    GRPC: grpcAddress,
  };
  const interfaces: AgentInterface[] = bindings.flatMap((protocolBinding) => {
    const url = urls[protocolBinding];
    return url ? [{ url, protocolBinding, tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }] : [];
  });
  return {
    name: description.name,
    description: description.description,
    supportedInterfaces: legacy ? duplicateInterfacesForLegacy(interfaces, ['JSONRPC', 'HTTP+JSON']) : interfaces,
    provider: { organization: 'a2a-temporal sample agents', url: baseUrl },
    version: description.version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: description.defaultInputModes,
    defaultOutputModes: description.defaultOutputModes,
    skills: description.skills.map((skill) => ({
      examples: [],
      inputModes: description.defaultInputModes,
      outputModes: description.defaultOutputModes,
      securityRequirements: [],
      ...skill,
    })),
    signatures: [],
  };
}
