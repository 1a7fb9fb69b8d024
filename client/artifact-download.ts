/**
 * `url` parts, fetched for `artifacts --save` by the rules of every agent call: the agent's
 * outbound policy (its agents-file entry, or the stranger rules for an agent named by URL)
 * decides whether the URL may be fetched at all and whether the agent's credentials go along;
 * the body is read within A2A_MAX_BODY_BYTES and the request within A2A_REQUEST_TIMEOUT_MS.
 */
import { HttpClient } from '../a2a/http.js';
import { displayUrl } from '../a2a/display-url.js';
import type { ErrorContext } from '../a2a/errors.js';
import { resolveLimits } from '../a2a/limits.js';
import { AgentAccess, defaultDispatcher } from '../activities/agent-access.js';
import { AgentRegistry, loadAgentRegistry } from '../activities/agent-registry.js';
import { publicAddressLookup } from '../a2a/outbound-policy.js';
import type { WorkerConfig } from '../worker/config.js';
import type { ArtifactFile } from './artifacts.js';
import { CliError } from './cli-error.js';

/** Fetches the `url` parts of artifacts. */
export interface UrlDownloads {
  /** @throws OutboundRefusedError (A2A_OUTBOUND_REFUSED) when the agent's policy forbids the URL; nothing is sent. */
  check(file: ArtifactFile): Promise<void>;
  /** The body, counted: past the byte cap the request is aborted with an error. */
  open(file: ArtifactFile, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
  close(): Promise<void>;
}

/** Downloads with the agents and settings of a worker's configuration (the same environment the worker reads). */
export function agentDownloads(config: WorkerConfig): UrlDownloads {
  const registry = config.agentsFile
    ? loadAgentRegistry(config.agentsFile, process.env, config.agentUrls)
    : new AgentRegistry({ agents: {} }, process.env, undefined, config.agentUrls);
  const dispatcher = defaultDispatcher();
  const publicDispatcher = defaultDispatcher({ lookup: publicAddressLookup(config.agentUrls.allowPrivate ?? false) });
  const access = new AgentAccess({
    dispatcher,
    publicDispatcher,
    env: process.env,
    timeoutMs: config.requestTimeoutMs,
    limits: config.limits,
  });
  const limits = resolveLimits(config.limits);
  const contextOf = (file: ArtifactFile, agentUrl: string): ErrorContext => ({ operation: 'DownloadFile', agentUrl });

  return {
    async check(file) {
      const location = registry.locate(file.agent);
      await location.policy.check(file.url!, contextOf(file, location.url));
    },
    async open(file, signal) {
      const location = registry.locate(file.agent);
      const connection = await access.connection(location, 'interface');
      const http = new HttpClient({ ...connection, policy: location.policy, limits: config.limits });
      const stream = await http.stream(
        {
          method: 'GET',
          url: file.url!,
          headers: { accept: '*/*' },
          context: contextOf(file, location.url),
          signal,
        },
        { connectTimeoutMs: config.requestTimeoutMs, idleTimeoutMs: config.requestTimeoutMs },
      );
      const shown = displayUrl(file.url!);
      if (stream.status !== 200) {
        stream.close();
        throw new CliError(`${shown} answered HTTP ${stream.status} for "${file.name}"; nothing was written.`);
      }
      const max = limits.maxBodyBytes;
      const tooLarge = () =>
        new CliError(
          `"${file.name}" at ${shown} is larger than ${max} bytes (A2A_MAX_BODY_BYTES, the cap of every agent response); nothing was written.`,
        );
      if (Number(stream.headers['content-length'] ?? 0) > max) {
        stream.close();
        throw tooLarge();
      }
      return (async function* () {
        let total = 0;
        try {
          for await (const chunk of stream.body) {
            total += chunk.byteLength;
            if (total > max) throw tooLarge();
            stream.touch();
            yield chunk;
          }
        } catch (err) {
          throw err instanceof CliError ? err : stream.classify(err);
        } finally {
          stream.close();
        }
      })();
    },
    async close() {
      await Promise.all([dispatcher.close(), publicDispatcher.close()]);
    },
  };
}
