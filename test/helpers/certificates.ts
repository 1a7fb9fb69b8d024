/**
 * Certificates for the TLS tests, made by `openssl` in a temporary folder: a CA, a server
 * certificate for 127.0.0.1 signed by it, a client certificate signed by it, and a client
 * certificate signed by another CA (the wrong one).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificateFiles {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  strangerCert: string;
  strangerKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A key and a certificate for `subject`, signed by `ca` (or self-signed as a CA when `ca` is undefined). */
function issue(dir: string, name: string, subject: string, ca?: string, ext?: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`]);
  if (!ca) {
    openssl(dir, [
      'req',
      '-x509',
      '-new',
      '-key',
      `${name}.key`,
      '-subj',
      subject,
      '-days',
      '2',
      '-out',
      `${name}.crt`,
    ]);
    return;
  }
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`]);
  const extFile = `${name}.ext`;
  writeFileSync(join(dir, extFile), ext ?? '');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    extFile,
    '-out',
    `${name}.crt`,
  ]);
}

export function makeCertificates(): CertificateFiles {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-tls-'));
  issue(dir, 'ca', '/CN=a2a-temporal test CA');
  issue(dir, 'server', '/CN=127.0.0.1', 'ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue(dir, 'client', '/CN=a2a-temporal worker', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'other-ca', '/CN=another CA');
  issue(dir, 'stranger', '/CN=a2a-temporal worker', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  const at = (file: string) => join(dir, file);
  return {
    dir,
    caCert: at('ca.crt'),
    serverCert: at('server.crt'),
    serverKey: at('server.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
    strangerCert: at('stranger.crt'),
    strangerKey: at('stranger.key'),
  };
}

export const pem = (file: string): string => readFileSync(file, 'utf8');
