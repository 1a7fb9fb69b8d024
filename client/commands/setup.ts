import type { Duration } from '@temporalio/common';
import { durationMs } from '../../contract/durations.js';
import type { Command } from 'commander';
import { ensureNamespace } from '../../platform/namespace-setup.js';
import { ensureSearchAttributes } from '../../platform/search-attributes-setup.js';
import { grpcCode, GrpcStatus } from '../../platform/grpc-status.js';
import { searchAttributeKeys } from '../../contract/search-attributes.js';
import { CliError, usageError } from '../cli-error.js';
import { withContext } from '../context.js';

interface SetupOptions {
  address?: string;
  namespace?: string;
  retention: string;
  createNamespace: boolean;
}

export function registerSetupCommand(program: Command): void {
  program
    .command('setup')
    .description(
      'prepare a Temporal namespace: create it when it is missing (where the server allows it) and register the search attributes the workflows set (idempotent)',
    )
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS, default 127.0.0.1:7233)')
    .option('--namespace <ns>', 'the namespace (env TEMPORAL_NAMESPACE, default "default")')
    .option('--retention <duration>', 'how long a new namespace keeps closed workflows', '3 days')
    .option('--no-create-namespace', 'only register the search attributes; fail when the namespace is missing')
    .action(async (opts: SetupOptions) => {
      const retention = parseRetention(opts.retention);
      await withContext(opts, async (context) => {
        const { connection } = context.client;
        const { namespace, address } = context;
        // Without --no-create-namespace a missing namespace is created; with it, the search
        // attribute call below fails with "namespace not found", which withContext explains.
        if (opts.createNamespace) {
          const outcome = await ensureNamespace(connection, namespace, retention).catch((err: unknown) => {
            throw refused(
              err,
              `create namespace ${namespace} on ${address}`,
              'create it in the Temporal Cloud UI or with `tcld namespace create`, then run setup again with --no-create-namespace',
            );
          });
          console.log(
            outcome === 'created'
              ? `Namespace ${namespace}: created on ${address} (retention ${opts.retention})`
              : `Namespace ${namespace}: exists on ${address}`,
          );
        }
        const added = await ensureSearchAttributes(connection, namespace).catch((err: unknown) => {
          throw refused(
            err,
            `register search attributes in namespace ${namespace}`,
            'register them in the Temporal Cloud UI or with `tcld namespace search-attributes add` (all Keyword)',
          );
        });
        console.log(
          added.length
            ? `Search attributes: registered ${added.join(', ')}`
            : `Search attributes: all ${searchAttributeKeys.length} present (${searchAttributeKeys.map((k) => k.name).join(', ')})`,
        );
      });
    });
}

function parseRetention(value: string): Duration {
  let ms: number;
  try {
    ms = durationMs(value, '--retention');
  } catch {
    ms = NaN;
  }
  if (!Number.isFinite(ms) || ms < 86_400_000) {
    throw usageError(`--retention must be a duration of at least 1 day, such as "3 days"; got "${value}".`);
  }
  return value as Duration;
}

/** Temporal Cloud (and servers with an authorizer) refuse namespace and search-attribute changes to ordinary keys. */
function refused(err: unknown, what: string, wayOut: string): unknown {
  const code = grpcCode(err);
  if (code !== GrpcStatus.PERMISSION_DENIED && code !== GrpcStatus.UNIMPLEMENTED) return err;
  return new CliError(`The server does not let these credentials ${what}: ${wayOut}.`, 1, { cause: err });
}
