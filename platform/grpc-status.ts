/**
 * gRPC status codes of Temporal's errors, read the same way from a client `Connection` (grpc-js:
 * the code on the error or, for the client's own wrappers, on its `cause`) and a worker's
 * `NativeConnection` (the SDK core's `ServiceError` with `code`).
 */

/** The codes this project tells apart (https://grpc.github.io/grpc/core/md_doc_statuscodes.html). */
export const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/** The errors of `err`'s cause chain, outermost first (at most 8: causes can loop). */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && chain.length < 8; e = (e as { cause?: unknown }).cause) {
    chain.push(e);
  }
  return chain;
}

/** The first numeric gRPC `code` in the cause chain. */
export function grpcCode(err: unknown): number | undefined {
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number') return code;
  }
  return undefined;
}

/** Every message of the cause chain, joined (the server's text is often only on the cause). */
export function chainText(err: unknown): string {
  return causeChain(err)
    .map((e) => (e instanceof Error ? e.message : String(e)))
    .join(' | ');
}
