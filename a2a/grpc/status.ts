/**
 * From a failed gRPC call to a typed {@link A2AError}. The agent's status (code, message, and the
 * `google.rpc.Status` in the `grpc-status-details-bin` trailer, decoded with the generated code of
 * the vendored `google/rpc` protos) goes through the same error table as the HTTP bindings
 * ({@link errorFromGrpcStatus}); what the client library reports about the connection itself
 * (refused, reset, a TLS handshake that failed, a message over our receive cap) becomes the same
 * transport errors as on HTTP. Everything quoted is scrubbed of the call's credentials and bounded.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { anyIs, anyUnpack, durationMs } from '@bufbuild/protobuf/wkt';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { errorFromGrpcStatus, type ErrorScope, type GrpcStatusReport } from '../error-mapping.js';
import { ConnectionError, ResponseTooLargeError, type A2AError } from '../errors.js';
import { clip } from '../error-text.js';
import type { A2ALimits } from '../limits.js';
import { TlsHandshakeError } from '../security-errors.js';
import { ErrorInfoSchema, RetryInfoSchema } from './gen/google/rpc/error_details_pb.js';
import { StatusSchema } from './gen/google/rpc/status_pb.js';

/** Details read per status: an agent may send thousands, we look at the first few (as on HTTP). */
const MAX_DETAILS = 16;
/** The most bytes of `grpc-status-details-bin` decoded (the whole trailer is bounded by HTTP/2 header limits anyway). */
const MAX_DETAILS_BYTES = 64 * 1024;

/** What grpc-js reports for a message over `grpc.max_receive_message_length` (it is a client-side verdict). */
const TOO_LARGE_PREFIX = 'Received message larger than max';

/**
 * The error a failed call ends with. `local` is set when the status is the client library's own
 * verdict about the connection (no response headers ever came), not the agent's.
 */
export function errorFromServiceError(error: ServiceError, scope: ErrorScope, limits: A2ALimits): A2AError {
  const context = {
    ...(scope.operation !== undefined ? { operation: scope.operation } : {}),
    ...(scope.agentUrl !== undefined ? { agentUrl: scope.agentUrl } : {}),
  };
  const details = typeof error.details === 'string' ? error.details : '';
  if (error.code === GrpcStatus.RESOURCE_EXHAUSTED && details.startsWith(TOO_LARGE_PREFIX))
    return new ResponseTooLargeError({ ...context, limit: 'maxBodyBytes', max: limits.maxBodyBytes });
  if (error.code === GrpcStatus.UNAVAILABLE) {
    const tls = tlsFailure(details);
    if (tls) return new TlsHandshakeError({ ...context, ...tls });
    const systemCode = /\b(E[A-Z]{3,}|ERR_[A-Z0-9_]+)\b/.exec(details)?.[1];
    if (isLocal(details)) return new ConnectionError({ ...context, systemCode: clip(systemCode ?? 'UNAVAILABLE', 60) });
  }
  return errorFromGrpcStatus(statusReport(error), scope);
}

/** The connection-level failures grpc-js reports as UNAVAILABLE (not a status the agent sent). */
function isLocal(details: string): boolean {
  return (
    details.startsWith('No connection established') ||
    details.startsWith('Connection dropped') ||
    details.includes('read ECONNRESET') ||
    details.startsWith('Failed to connect')
  );
}

/** A TLS verdict retrying cannot change, from grpc-js's connection error text. */
function tlsFailure(details: string): { systemCode: string; clientCertificate: boolean } | undefined {
  if (/certificate required|alert number 116|bad certificate|alert number 42|unknown ca|alert number 48/i.test(details))
    return { systemCode: 'TLS_CLIENT_CERTIFICATE_REFUSED', clientCertificate: true };
  const server =
    /(self[- ]signed certificate|unable to verify the first certificate|unable to get local issuer certificate|certificate has expired|Hostname\/IP does not match)/i.exec(
      details,
    );
  return server ? { systemCode: server[1]!.toUpperCase().replace(/\W+/g, '_'), clientCertificate: false } : undefined;
}

/** The status as the agent reported it: code, message, and the ErrorInfo / RetryInfo details we read. */
function statusReport(error: ServiceError): GrpcStatusReport {
  const report: GrpcStatusReport = { code: error.code, message: clip(error.details ?? '', 4000), infos: [] };
  const bin = error.metadata instanceof Metadata ? error.metadata.get('grpc-status-details-bin')[0] : undefined;
  if (!(bin instanceof Uint8Array) || bin.byteLength > MAX_DETAILS_BYTES) return report;
  try {
    const status = fromBinary(StatusSchema, bin, { recursionLimit: 16 });
    for (const detail of status.details.slice(0, MAX_DETAILS)) {
      const info = anyIs(detail, ErrorInfoSchema) ? anyUnpack(detail, ErrorInfoSchema) : undefined;
      if (info) {
        const entries = Object.entries(info.metadata);
        report.infos.push({
          reason: info.reason,
          domain: info.domain,
          ...(entries.length ? { metadata: Object.fromEntries(entries.slice(0, 16)) } : {}),
        });
      }
      const retry = anyIs(detail, RetryInfoSchema) ? anyUnpack(detail, RetryInfoSchema) : undefined;
      if (retry?.retryDelay) report.retryDelayMs = durationMs(retry.retryDelay);
    }
  } catch {
    // Details that do not decode: the status code alone decides.
  }
  return report;
}
