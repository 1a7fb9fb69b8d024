/**
 * What every workflow command needs: a Temporal client (from Temporal's environment
 * configuration, flags win), the namespace, the Web UI's address for links, and the output mode.
 */
import { Client, Connection } from '@temporalio/client';
import { tracingClientOptions } from '../telemetry/client-interceptors.js';
import type { Command } from 'commander';
import { temporalTarget, type TemporalTarget } from '../platform/temporal-config.js';
import { explainConnectionFailure, explainTemporalError } from './temporal-errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { loadBlobSettings, openBlobStore, type BlobSettings } from '../storage/config.js';
import { blobPlugins } from '../storage/temporal-storage.js';

export interface GlobalOptions {
  address?: string;
  namespace?: string;
  uiUrl?: string;
  json?: boolean;
  verbose?: boolean;
}

export interface CliContext {
  client: Client;
  address: string;
  namespace: string;
  /** Base URL of the Temporal Web UI; undefined when nothing says where it is (see {@link uiBaseUrl}). */
  uiBase?: string;
  json: boolean;
  /** The blob store the workers write to (the same A2A_BLOB_* settings): External Storage's claims and stored artifacts. */
  blobs: { settings: BlobSettings; store: BlobStore };
  close(): Promise<void>;
}

/** Temporal Cloud's Web UI: one site for every namespace. */
export const TEMPORAL_CLOUD_UI_URL = 'https://cloud.temporal.io';

/** Adds the connection flags every workflow command takes. */
export function withConnectionOptions(command: Command): Command {
  return command
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS, default 127.0.0.1:7233)')
    .option('--namespace <ns>', 'Temporal namespace (env TEMPORAL_NAMESPACE, default "default")')
    .option(
      '--ui-url <url>',
      'Temporal Web UI for links (env A2A_TEMPORAL_UI_URL; default: Temporal Cloud for a Cloud address, the frontend port + 1000 for the embedded server)',
    );
}

/** Connects to Temporal. @throws CliError with the way out when no server answers or TLS does not fit. */
export async function openContext(options: GlobalOptions): Promise<CliContext> {
  const target = temporalTarget(options);
  const settings = loadBlobSettings();
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: 3_000 });
    await connection.workflowService.getSystemInfo({});
  } catch (err) {
    throw (await explainConnectionFailure(err, target)) ?? err;
  }
  const store = openBlobStore(settings.store);
  return {
    client: new Client({
      connection,
      namespace: target.namespace,
      // A traced command starts the trace: `release start` is the root of the release's spans.
      ...tracingClientOptions(),
      // Results and queries above the threshold are claims in history: read through the store.
      plugins: blobPlugins(settings, store),
    }),
    address: target.address,
    namespace: target.namespace,
    uiBase: uiBaseUrl(options.uiUrl, target),
    json: options.json ?? false,
    blobs: { settings, store },
    close: async () => {
      await store.close();
      await connection.close();
    },
  };
}

/** The Web UI link of a workflow, when the UI's address is known. */
export function workflowUrl(context: Pick<CliContext, 'uiBase' | 'namespace'>, workflowId: string): string | undefined {
  if (!context.uiBase) return undefined;
  return `${context.uiBase}/namespaces/${encodeURIComponent(context.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** The "UI:" line the start commands print (with how to get a link when there is none). */
export function uiLine(url: string | undefined): string {
  return url ? `UI: ${url}` : 'UI: unknown (set A2A_TEMPORAL_UI_URL or --ui-url to get links to the Temporal Web UI)';
}

/**
 * Where the Web UI is: `--ui-url` or A2A_TEMPORAL_UI_URL; Temporal Cloud's UI when the profile
 * points at Temporal Cloud; the frontend port + 1000 only for what looks like the embedded dev
 * server (a loopback address without TLS or API key); otherwise unknown, since a guess would be
 * a wrong link (compose serves the UI on 8080, a cluster wherever its operator put it).
 */
export function uiBaseUrl(flag: string | undefined, target: TemporalTarget): string | undefined {
  const explicit = flag || process.env.A2A_TEMPORAL_UI_URL;
  if (explicit) return explicit.replace(/\/+$/, '');
  const host = /^\[?([^\]]*?)\]?(?::\d+)?$/.exec(target.address)?.[1] ?? target.address;
  if (/\.tmprl\.cloud$|\.api\.temporal\.io$/i.test(host)) return TEMPORAL_CLOUD_UI_URL;
  const { tls, apiKey } = target.connectionOptions;
  const loopback = ['127.0.0.1', 'localhost', '::1', '0.0.0.0'].includes(host);
  return loopback && !tls && !apiKey ? defaultUiUrl(target.address) : undefined;
}

/** The dev server's UI listens on the frontend port + 1000. */
function defaultUiUrl(address: string): string {
  const match = /^(.*):(\d+)$/.exec(address);
  if (!match) return `http://${address}:8233`;
  const host = match[1] === 'localhost' || match[1] === '0.0.0.0' ? '127.0.0.1' : match[1];
  return `http://${host}:${Number(match[2]) + 1000}`;
}

/** Runs `fn` with an open context and closes it afterwards; Temporal's refusals become one sentence. */
export async function withContext<T>(options: GlobalOptions, fn: (context: CliContext) => Promise<T>): Promise<T> {
  const context = await openContext(options);
  try {
    return await fn(context);
  } catch (err) {
    throw explainTemporalError(err, context) ?? err;
  } finally {
    await context.close();
  }
}
