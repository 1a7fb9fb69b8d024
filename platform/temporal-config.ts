/**
 * Where the Temporal service is, read the way every Temporal tool reads it: Temporal's
 * environment configuration (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
 * TEMPORAL_TLS_*, TEMPORAL_PROFILE and the TOML config file). Defaults: localhost:7233, default.
 */
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

/** Reads Temporal's environment configuration; explicit overrides (CLI flags) win. */
export function temporalTarget(overrides: { address?: string; namespace?: string } = {}): TemporalTarget {
  const config = loadClientConnectConfig();
  const address = overrides.address ?? config.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS;
  const namespace = overrides.namespace ?? config.namespace ?? 'default';
  return { address, namespace, connectionOptions: { ...stripUndefined(config.connectionOptions), address } };
}
