/**
 * Where the Temporal service is, read the way every Temporal tool reads it: Temporal's
 * environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
 * TEMPORAL_TLS_*, TEMPORAL_PROFILE and the TOML config file). Defaults: localhost:7233, default.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { stripUndefined } from './strip-undefined.js';

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** Options for `Connection.connect` / `NativeConnection.connect` (TLS, API key, gRPC metadata). */
  connectionOptions: NativeConnectionOptions & { address: string };
}

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_TASK_QUEUE = 'a2a-temporal';

/**
 * Reads Temporal's environment configuration (the profile named by TEMPORAL_PROFILE, which the
 * CLI's `--profile` sets); explicit overrides (CLI flags) win.
 * @throws Error with a sentence when the profile does not exist or the config file is invalid.
 */
export function temporalTarget(overrides: { address?: string; namespace?: string } = {}): TemporalTarget {
  let config: ReturnType<typeof loadClientConnectConfig>;
  try {
    config = loadClientConnectConfig();
  } catch (err) {
    const file = process.env.TEMPORAL_CONFIG_FILE ?? join(homedir(), '.config', 'temporalio', 'temporal.toml');
    throw new Error(
      `Cannot read the Temporal connection profile${process.env.TEMPORAL_PROFILE ? ` "${process.env.TEMPORAL_PROFILE}"` : ''} from ${file} (${(err as Error).message}): list its profiles with \`temporal config list\`, or choose another with --profile (env TEMPORAL_PROFILE, file TEMPORAL_CONFIG_FILE).`,
      { cause: err },
    );
  }
  const address = overrides.address ?? config.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS;
  const namespace = overrides.namespace ?? config.namespace ?? 'default';
  return { address, namespace, connectionOptions: { ...stripUndefined(config.connectionOptions), address } };
}
