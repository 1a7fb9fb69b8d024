/**
 * What every workflow command needs: a Temporal client (from Temporal's environment
 * configuration, flags win), the namespace, the Web UI's address for links, and the output mode.
 */
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { tracingClientOptions } from '../telemetry/client-interceptors.js';
import type { Command } from 'commander';
import { temporalTarget, type TemporalTarget } from '../platform/temporal-config.js';
import { refusal } from '../platform/endpoint-probe.js';
import { CALL_DEADLINE_MS, callDeadlines } from './call-deadline.js';
import { CliError, ExitCode } from './cli-error.js';
import { explainConnectionFailure, explainTemporalError, unreachableServer } from './temporal-errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import { loadBlobSettings, openBlobStore, type BlobSettings } from '../storage/config.js';
import { blobPlugins } from '../storage/temporal-storage.js';

export interface GlobalOptions {
  address?: string;
  namespace?: string;
  uiUrl?: string;
  json?: boolean;
  verbose?: boolean;
  /** `--connect-timeout`, in seconds. */
  connectTimeout?: string;
}

export interface CliContext {
  client: Client;
  address: string;
  namespace: string;
  /** How long a call may wait for the server's answer, in seconds (said when one does not come). */
  waitS?: number;
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
    )
    .option(
      '--connect-timeout <seconds>',
      `how long to wait for the Temporal server to answer (env A2A_TEMPORAL_CONNECT_TIMEOUT, default ${DEFAULT_CONNECT_TIMEOUT_S}; calls wait at least ${CALL_DEADLINE_MS / 1000})`,
    );
}

const DEFAULT_CONNECT_TIMEOUT_S = 10;

/** `--connect-timeout` or A2A_TEMPORAL_CONNECT_TIMEOUT, in ms. @throws CliError (usage) for anything but a positive number of seconds. */
export function connectTimeoutMs(flag: string | undefined): number {
  const text = flag ?? process.env.A2A_TEMPORAL_CONNECT_TIMEOUT;
  if (text === undefined || text === '') return DEFAULT_CONNECT_TIMEOUT_S * 1000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
    throw new CliError(
      `--connect-timeout (env A2A_TEMPORAL_CONNECT_TIMEOUT) takes seconds between 0 and 3600, not "${text.slice(0, 40)}".`,
      ExitCode.usage,
    );
  return Math.round(seconds * 1000);
}

/** Connects to Temporal. @throws CliError with the way out when no server answers or TLS does not fit. */
export async function openContext(options: GlobalOptions): Promise<CliContext> {
  const target = temporalTarget(options);
  const timeoutMs = connectTimeoutMs(options.connectTimeout);
  const settings = loadBlobSettings();
  const connection = await connectCli(target, timeoutMs);
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
    waitS: Math.max(timeoutMs, CALL_DEADLINE_MS) / 1000,
    uiBase: uiBaseUrl(options.uiUrl, target),
    json: options.json ?? false,
    blobs: { settings, store },
    close: async () => {
      await store.close();
      await connection.close();
    },
  };
}

/**
 * Connects the way every command does: a server that is not there is told at once (a refused TCP
 * connection, tried first, where gRPC would retry until its deadline), the first answer within
 * `timeoutMs`, every call with a deadline (see call-deadline.ts), then the SDK's retries of
 * transient failures.
 * @throws CliError saying whether the server cannot be reached or did not answer in time.
 */
export async function connectCli(target: TemporalTarget, timeoutMs: number): Promise<Connection> {
  const refused = await refusal(target.address, Math.min(timeoutMs, REFUSAL_PROBE_MS));
  if (refused) throw unreachableServer(target.address, new Error(refused));
  try {
    return await Connection.connect({
      ...target.connectionOptions,
      connectTimeout: timeoutMs,
      interceptors: [
        callDeadlines(Math.max(timeoutMs, CALL_DEADLINE_MS)),
        makeGrpcRetryInterceptor(defaultGrpcRetryOptions()),
      ],
    });
  } catch (err) {
    throw (await explainConnectionFailure(err, target, timeoutMs / 1000)) ?? err;
  }
}

/** A TCP connection that neither opens nor is refused in this time is left to gRPC's deadline. */
const REFUSAL_PROBE_MS = 3_000;

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
