/**
 * Why a connection to a Temporal frontend failed, found by trying the two layers under gRPC
 * ourselves: TCP, then TLS with the same settings the connection used. gRPC clients report a TLS
 * mismatch only as "failed to connect before the deadline" (grpc-js) or a transport error (the
 * SDK core); the handshake tells which certificate, name or protocol was wrong.
 */
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { TLSConfig } from '@temporalio/client';

export type EndpointDiagnosis =
  /** Nothing accepts TCP connections there. */
  | { kind: 'unreachable'; detail: string }
  /** TLS was asked for and the handshake failed (`detail` says why). */
  | { kind: 'tls-failed'; detail: string }
  /** The connection was plain, but the server speaks TLS. */
  | { kind: 'needs-tls' }
  /** TCP connects, then nothing comes back (something between holds the connection open). */
  | { kind: 'silent' }
  /** TCP (and TLS, when asked for) work: the failure is elsewhere. */
  | { kind: 'reachable' };

const PROBE_TIMEOUT_MS = 3_000;
const NO_ANSWER = `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;

/**
 * Why nothing accepts a TCP connection at `address` (refused, no such host), or undefined when a
 * connection opens or nothing answers within `timeoutMs` (a slow or filtered server: only the call
 * itself can tell). Quick: a refusal comes back at once, where gRPC keeps retrying until its deadline.
 */
export async function refusal(address: string, timeoutMs: number): Promise<string | undefined> {
  const { host, port } = splitAddress(address);
  const failed = await attempt((done) => {
    const socket = tcpConnect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => done(socket));
    return socket;
  });
  return failed === NO_ANSWER ? undefined : failed;
}

export async function probeEndpoint(
  address: string,
  tls: TLSConfig | boolean | null | undefined,
): Promise<EndpointDiagnosis> {
  const { host, port } = splitAddress(address);
  const tcp = await attempt((done) => {
    const socket = tcpConnect({ host, port, timeout: PROBE_TIMEOUT_MS });
    socket.once('connect', () => done(socket));
    return socket;
  });
  if (tcp) return { kind: 'unreachable', detail: tcp };
  const config = tls === true ? {} : tls || undefined;
  const options: ConnectionOptions = {
    host,
    port,
    ALPNProtocols: ['h2'],
    timeout: PROBE_TIMEOUT_MS,
    servername: config?.serverNameOverride ?? (isIp(host) ? undefined : host),
    ...(config?.serverRootCACertificate ? { ca: Buffer.from(config.serverRootCACertificate) } : {}),
    ...(config?.clientCertPair
      ? { cert: Buffer.from(config.clientCertPair.crt), key: Buffer.from(config.clientCertPair.key) }
      : {}),
    rejectUnauthorized: Boolean(config),
  };
  const handshake = await attempt((done) => {
    const socket = tlsConnect(options);
    socket.once('secureConnect', () => done(socket));
    return socket;
  });
  if (handshake === NO_ANSWER) return { kind: 'silent' };
  if (config) return handshake ? { kind: 'tls-failed', detail: handshake } : { kind: 'reachable' };
  return handshake ? { kind: 'reachable' } : { kind: 'needs-tls' };
}

/** Runs a connection attempt; resolves to undefined on success, else the reason. */
function attempt(open: (done: (socket: { destroy(): void }) => void) => NodeJS.EventEmitter & { destroy(): void }) {
  return new Promise<string | undefined>((resolve) => {
    const socket = open((s) => {
      s.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException & { reason?: string }) => {
      socket.destroy();
      // OpenSSL's errors carry a short `reason` ("wrong version number"); certificate checks say it in the message.
      resolve(err.reason ?? err.message);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(NO_ANSWER);
    });
  });
}

function splitAddress(address: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return match ? { host: match[1]!, port: Number(match[2]) } : { host: address, port: 7233 };
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
