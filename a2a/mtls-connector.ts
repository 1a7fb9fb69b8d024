/**
 * Connections that present a client certificate (mutual TLS), with a clear verdict when the
 * agent refuses it. They are made with TLS 1.2 at most: in TLS 1.2 the server judges the client
 * certificate inside the handshake, so a refusal is a handshake failure (an alert, or the
 * connection reset before the handshake ended). In TLS 1.3 the server judges it after the client
 * has finished, and the refusal reaches undici later as a bare "other side closed" on the first
 * request — the same as a server restarting, and retried as such for minutes. A refusal fails
 * the request with a {@link TlsHandshakeError} that names mutual TLS and is not retried.
 * Verification of the agent's certificate is undici's default, always on.
 */
import { buildConnector } from 'undici';
import { TlsHandshakeError } from './security-errors.js';

/** A connector for undici's `connect` option presenting `cert`/`key`, verifying the agent against `ca` (or the system roots). */
export function mutualTlsConnector(tls: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector({ ...tls, maxVersion: 'TLSv1.2' });
  return (options, callback) =>
    connect(options, (err, socket) => {
      if (!err) return callback(null, socket!);
      return callback(refusal(err, `${options.protocol}//${options.hostname}:${options.port}`) ?? err, null);
    });
}

/** A handshake failure while presenting a certificate: an alert from the agent, or a reset before the handshake ended. */
function refusal(err: Error, agentUrl: string): TlsHandshakeError | undefined {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const duringHandshake = code === 'ECONNRESET' && err.message.includes('before secure TLS connection');
  if (!code.startsWith('ERR_SSL_') && !duringHandshake) return undefined;
  return new TlsHandshakeError({ agentUrl, systemCode: code, clientCertificate: true, cause: err });
}
