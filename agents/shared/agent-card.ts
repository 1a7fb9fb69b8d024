import { A2A_PROTOCOL_VERSION } from '@a2a-js/sdk';
import type { AgentCard, AgentInterface, AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

/** Mount points of the two A2A bindings every sample agent serves. */
export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';

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
 * The agent card for an agent bound at `baseUrl`: JSON-RPC first (the SDK client's default
 * choice), then HTTP+JSON, both protocol 1.0; with `legacy` each binding is mirrored as a 0.3
 * interface at the same URL (the SDK routes by the `A2A-Version` header).
 */
export function buildAgentCard(description: AgentDescription, baseUrl: string, legacy: boolean): AgentCard {
  const interfaces: AgentInterface[] = [
    { url: `${baseUrl}${JSONRPC_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: `${baseUrl}${REST_PATH}`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
  ];
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
