/**
 * What every workflow command needs: a Temporal client (from Temporal's environment
 * configuration, flags win), the namespace, the Web UI's address for links, and the output mode.
 */
import { Client, Connection } from '@temporalio/client';
import type { Command } from 'commander';
import { temporalTarget } from '../platform/temporal-config.js';
import { unreachableServer } from './temporal-errors.js';

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
  /** Base URL of the Temporal Web UI. */
  uiBase: string;
  json: boolean;
  close(): Promise<void>;
}

/** Adds the connection flags every workflow command takes. */
export function withConnectionOptions(command: Command): Command {
  return command
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS, default 127.0.0.1:7233)')
    .option('--namespace <ns>', 'Temporal namespace (env TEMPORAL_NAMESPACE, default "default")')
    .option('--ui-url <url>', 'Temporal Web UI for links (env A2A_TEMPORAL_UI_URL; default: the frontend port + 1000)');
}

/** Connects to Temporal. @throws CliError saying how to start a server when none answers. */
export async function openContext(options: GlobalOptions): Promise<CliContext> {
  const target = temporalTarget(options);
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: 3_000 });
    await connection.workflowService.getSystemInfo({});
  } catch (err) {
    throw unreachableServer(target.address, err) ?? err;
  }
  return {
    client: new Client({ connection, namespace: target.namespace }),
    address: target.address,
    namespace: target.namespace,
    uiBase: (options.uiUrl ?? process.env.A2A_TEMPORAL_UI_URL ?? defaultUiUrl(target.address)).replace(/\/+$/, ''),
    json: options.json ?? false,
    close: () => connection.close(),
  };
}

/** The Web UI link of a workflow. */
export function workflowUrl(context: Pick<CliContext, 'uiBase' | 'namespace'>, workflowId: string): string {
  return `${context.uiBase}/namespaces/${encodeURIComponent(context.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

/** The dev server's UI listens on the frontend port + 1000. */
export function defaultUiUrl(address: string): string {
  const match = /^(.*):(\d+)$/.exec(address);
  if (!match) return `http://${address}:8233`;
  const host = match[1] === 'localhost' || match[1] === '0.0.0.0' ? '127.0.0.1' : match[1];
  return `http://${host}:${Number(match[2]) + 1000}`;
}

/** Runs `fn` with an open context and closes it afterwards. */
export async function withContext<T>(options: GlobalOptions, fn: (context: CliContext) => Promise<T>): Promise<T> {
  const context = await openContext(options);
  try {
    return await fn(context);
  } finally {
    await context.close();
  }
}
