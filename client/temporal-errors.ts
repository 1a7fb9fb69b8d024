/**
 * The Temporal failures an operator meets when pointing the CLI or a worker at a server, each
 * turned into one sentence with the way out: no server, a missing namespace, a namespace without
 * our search attributes, refused credentials, a TLS mismatch.
 */
import { probeEndpoint } from '../platform/endpoint-probe.js';
import { causeChain, chainText, grpcCode, GrpcStatus } from '../platform/grpc-status.js';
import { setupCommand } from '../platform/search-attributes-setup.js';
import type { TemporalTarget } from '../platform/temporal-config.js';
import { CliError } from './cli-error.js';

/** Where the failed call went, and how long it could wait for its answer (seconds). */
export type TemporalWhere = Pick<TemporalTarget, 'address' | 'namespace'> & { waitS?: number };

/** The sentence for a Temporal server that does not answer at `address`. */
export function unreachableServer(address: string, err: unknown): CliError {
  return new CliError(
    `Cannot reach the Temporal server at ${address}. Start one with \`npx --no-install a2a-temporal server\`, or point TEMPORAL_ADDRESS at yours.`,
    1,
    { cause: err },
  );
}

/**
 * The sentence for a server that connects (or might) but did not answer within `waitS`: a busy
 * server, or a link that holds the connection while no byte moves. Not "cannot reach": waiting
 * longer may be all it takes.
 */
function slowServer(address: string, waitS: number | undefined, err: unknown): CliError {
  return new CliError(
    `The Temporal server at ${address} did not answer${waitS ? ` within ${waitS} s` : ' in time'}: it may be busy, or something between here and it holds the connection (a proxy, a firewall, a link that drops packets); wait longer with --connect-timeout <seconds> (env A2A_TEMPORAL_CONNECT_TIMEOUT), or check the network to it.`,
    1,
    { cause: err },
  );
}

/**
 * One sentence for a failed call to a reachable server: the namespace is missing, lacks a search
 * attribute the workflows set, or the credentials are refused. Undefined for anything else.
 */
export function explainTemporalError(err: unknown, where: TemporalWhere): CliError | undefined {
  if (err instanceof CliError) return err;
  const text = chainText(err);
  const code = grpcCode(err);
  const { address, namespace } = where;
  const attribute = /no mapping defined for search attribute (\S+)/i.exec(text)?.[1];
  if (attribute) {
    return new CliError(
      `Namespace ${namespace} on ${address} has no search attribute ${attribute.replace(/[.,;]$/, '')}, which a2a-temporal's workflows set: register them all with \`${setupCommand(namespace)}\`.`,
      1,
      { cause: err },
    );
  }
  if (
    hasName(err, 'NamespaceNotFoundError') ||
    (code === GrpcStatus.NOT_FOUND && /namespace\b.*\bnot found|namespace not found/i.test(text))
  ) {
    return new CliError(
      `Namespace ${namespace} does not exist on ${address}: create it with \`${setupCommand(namespace)}\`, or choose another with --namespace (env TEMPORAL_NAMESPACE).`,
      1,
      { cause: err },
    );
  }
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return slowServer(address, where.waitS, err);
  if (code === GrpcStatus.UNAVAILABLE) {
    return new CliError(
      `Lost the connection to the Temporal server at ${address} (${serverMessage(err) || 'unavailable'}): check that it runs and the network to it, then run the command again.`,
      1,
      { cause: err },
    );
  }
  if (code === GrpcStatus.PERMISSION_DENIED || code === GrpcStatus.UNAUTHENTICATED) {
    const said = serverMessage(err);
    return new CliError(
      `The Temporal server at ${address} refused the request for namespace ${namespace} (${code === GrpcStatus.UNAUTHENTICATED ? 'unauthenticated' : 'permission denied'}${said ? `: ${said}` : ''}): check the API key (TEMPORAL_API_KEY) or client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH) of your environment or --profile, and that it may use this namespace.`,
      1,
      { cause: err },
    );
  }
  return undefined;
}

/**
 * The sentence for a failure while connecting (`waitS`: how long it waited): a known Temporal
 * error ({@link explainTemporalError}), or what a TCP and TLS probe of the address finds ("nothing
 * listens", a TLS mismatch, no answer in time). Undefined when the server answers and the error
 * itself says more.
 */
export async function explainConnectionFailure(
  err: unknown,
  target: TemporalTarget,
  waitS?: number,
): Promise<CliError | undefined> {
  const known = explainTemporalError(err, { ...target, waitS });
  if (known) return known;
  // gRPC clients say only "failed to connect before the deadline": ask the endpoint itself.
  const tls = target.connectionOptions.tls ?? (target.connectionOptions.apiKey ? true : undefined);
  const probe = await probeEndpoint(target.address, tls);
  switch (probe.kind) {
    case 'tls-failed':
      return new CliError(
        `The TLS handshake with the Temporal server at ${target.address} failed (${probe.detail}): check the TLS settings of your environment or --profile (server CA TEMPORAL_TLS_SERVER_CA_CERT_PATH, server name TEMPORAL_TLS_SERVER_NAME, client certificate TEMPORAL_TLS_CLIENT_CERT_PATH and KEY_PATH), or set TEMPORAL_TLS=false for a server without TLS.`,
        1,
        { cause: err },
      );
    case 'needs-tls':
      return new CliError(
        `The Temporal server at ${target.address} speaks TLS, but this connection is plain: set TEMPORAL_TLS=true (with TEMPORAL_API_KEY or a client certificate), or choose a profile that has them with --profile.`,
        1,
        { cause: err },
      );
    case 'unreachable':
      return unreachableServer(target.address, err);
    case 'silent':
      return slowServer(target.address, waitS, err);
    default:
      // It answers now: a connection that timed out was a slow answer; otherwise the error says what went wrong.
      return /before the deadline|deadline exceeded/i.test(chainText(err))
        ? slowServer(target.address, waitS, err)
        : undefined;
  }
}

function hasName(err: unknown, name: string): boolean {
  return causeChain(err).some(
    (e) => (e as { name?: unknown }).name === name || (e as object).constructor?.name === name,
  );
}

/** The server's own words, without grpc-js's "7 PERMISSION_DENIED: " prefix. */
function serverMessage(err: unknown): string {
  const text = chainText(err).split(' | ').pop() ?? '';
  return text
    .replace(/^\d+ [A-Z_]+: /, '')
    .trim()
    .replace(/\.$/, '')
    .slice(0, 200);
}
