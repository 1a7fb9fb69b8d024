/**
 * The worker's agents file: agent names → card URL and a credential REFERENCE (the name of an
 * environment variable), so workflow inputs and history only ever carry names. Credentials are
 * read from the environment here, inside activities, at the moment a request needs them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { apiKeyAuth, bearerAuth, type AuthResolver } from '../a2a/index.js';

const AgentAuthSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('bearer'),
    /** Environment variable holding the token. */
    tokenEnv: z.string().min(1),
  }),
  z.object({
    type: z.literal('apiKey'),
    /** Header or query parameter name, e.g. `X-API-Key`. */
    name: z.string().min(1),
    location: z.enum(['header', 'query']).default('header'),
    /** Environment variable holding the key. */
    valueEnv: z.string().min(1),
  }),
]);

const AgentEntrySchema = z.object({
  /** The agent's base URL (card at /.well-known/agent-card.json) or the card's own URL. */
  url: z.url({ protocol: /^https?$/ }),
  description: z.string().optional(),
  auth: AgentAuthSchema.optional(),
});

export const AgentsFileSchema = z.object({ agents: z.record(z.string().min(1), AgentEntrySchema) });

export type AgentsFile = z.infer<typeof AgentsFileSchema>;
export type AgentEntry = z.infer<typeof AgentEntrySchema>;

/** Thrown when a name is not in the agents file; the message lists the names it has. */
export class AgentNotConfiguredError extends Error {
  override readonly name = 'AgentNotConfiguredError';
}

/** Thrown when the agents file refers to an environment variable that is not set. */
export class CredentialMissingError extends Error {
  override readonly name = 'CredentialMissingError';
}

/** Thrown when the agents file cannot be read or is not valid. */
export class AgentsFileError extends Error {
  override readonly name = 'AgentsFileError';
}

export interface AgentLocation {
  name: string;
  url: string;
  /** Resolves the credential on every request (the environment may rotate it). */
  auth?: AuthResolver;
}

export class AgentRegistry {
  constructor(
    private readonly file: AgentsFile,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Where the file came from, for messages. */
    readonly source = 'the agents file',
  ) {}

  /** Names it knows, for messages and `a2a-temporal agents list`. */
  names(): string[] {
    return Object.keys(this.file.agents);
  }

  entries(): Array<[string, AgentEntry]> {
    return Object.entries(this.file.agents);
  }

  /**
   * Finds an agent by name, or takes a URL as it is (with the credential of the entry that has
   * the same URL, if any).
   *
   * @throws AgentNotConfiguredError for an unknown name.
   */
  locate(nameOrUrl: string): AgentLocation {
    if (/^https?:\/\//.test(nameOrUrl)) {
      const match = this.entries().find(([, entry]) => sameUrl(entry.url, nameOrUrl));
      return { name: nameOrUrl, url: nameOrUrl, auth: match ? this.authOf(match[0], match[1]) : undefined };
    }
    const entry = this.file.agents[nameOrUrl];
    if (!entry) {
      const known = this.names();
      throw new AgentNotConfiguredError(
        `Agent "${nameOrUrl}" is not in ${this.source}` +
          (known.length ? ` (it has: ${known.join(', ')})` : ' (it lists no agents)') +
          "; add it there, or pass the agent's URL instead of a name.",
      );
    }
    return { name: nameOrUrl, url: entry.url, auth: this.authOf(nameOrUrl, entry) };
  }

  private authOf(name: string, entry: AgentEntry): AuthResolver | undefined {
    const auth = entry.auth;
    if (!auth) return undefined;
    const variable = auth.type === 'bearer' ? auth.tokenEnv : auth.valueEnv;
    return () => {
      const secret = this.env[variable];
      if (!secret) {
        throw new CredentialMissingError(
          `Agent "${name}" needs the environment variable ${variable} (${auth.type === 'bearer' ? 'bearer token' : `API key ${auth.name}`}), which is not set in the worker's environment; set it and restart the worker.`,
        );
      }
      return auth.type === 'bearer' ? bearerAuth(secret)() : apiKeyAuth(auth.name, secret, auth.location)();
    };
  }
}

/** Reads and validates an agents file. @throws AgentsFileError with the path and what is wrong. */
export function loadAgentRegistry(path: string, env: NodeJS.ProcessEnv = process.env): AgentRegistry {
  const absolute = resolve(path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(absolute, 'utf8'));
  } catch (err) {
    throw new AgentsFileError(
      `Cannot read the agents file ${absolute}: ${(err as Error).message}. Check the path (A2A_AGENTS_FILE or --agents-file).`,
    );
  }
  const parsed = AgentsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AgentsFileError(
      `The agents file ${absolute} is not valid: ${issue?.path.join('.') || '(root)'}: ${issue?.message}. Expected {"agents": {"<name>": {"url": "http://…"}}}.`,
    );
  }
  return new AgentRegistry(parsed.data, env, absolute);
}

function sameUrl(a: string, b: string): boolean {
  // String operations, not `/\/+$/`: that regex is quadratic on a URL of many slashes, and the URL comes from a workflow input.
  const strip = (u: string) => {
    let end = u.endsWith(CARD_SUFFIX) ? u.length - CARD_SUFFIX.length : u.length;
    while (end > 0 && u[end - 1] === '/') end--;
    return u.slice(0, end);
  };
  return strip(a) === strip(b);
}

const CARD_SUFFIX = '/.well-known/agent-card.json';
