/**
 * A real S3-compatible server for the tests: versitygw (Versity S3 Gateway, Apache-2.0) with its
 * posix backend, built once from the Go module proxy (`go install
 * github.com/versity/versitygw/cmd/versitygw@v1.8.0`: about 2 min with empty Go caches here,
 * 61 MB) and cached in `.cache/go-bin/versitygw-v1.8.0/`, like the other Go binaries. Each test
 * file starts its own on a free loopback port over a throw-away folder.
 *
 * Why versitygw: a real server that implements what the S3 driver uses (multipart uploads,
 * conditional `If-None-Match` puts, copy, listing) with one static binary and no runtime;
 * moto (PyPI) would do as well but is an emulator written for mocking in Python tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../../platform/free-port.js';
import { buildInto, findGo, goInstall } from '../../platform/go-install.js';
import { cacheDir } from '../../platform/paths.js';

export const VERSITYGW_VERSION = 'v1.8.0';

function folder(): string {
  return join(cacheDir, 'go-bin', `versitygw-${VERSITYGW_VERSION}`);
}

/** The versitygw binary, built on first use. @throws Error when Go is missing or the build fails. */
export async function ensureVersitygw(): Promise<{ path: string; built: boolean }> {
  const dir = folder();
  const path = join(dir, 'bin', 'versitygw');
  if (existsSync(path)) return { path, built: false };
  if (!(await findGo())) {
    throw new Error(
      `The S3 tests build versitygw ${VERSITYGW_VERSION} with Go from the Go module proxy, and no go command runs here: install Go 1.24 or later.`,
    );
  }
  await buildInto(dir, (tmp) =>
    goInstall([`github.com/versity/versitygw/cmd/versitygw@${VERSITYGW_VERSION}`], join(tmp, 'bin'), [
      '-trimpath',
      '-ldflags=-s -w',
    ]),
  );
  return { path, built: true };
}

export interface RunningS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment a2a-temporal reads to use this server (A2A_BLOB_STORE=s3 and the AWS credentials). */
  env: Record<string, string>;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts versitygw over a fresh folder with one bucket; resolves once the bucket exists. */
export async function startS3Server(options: { bucket?: string; prefix?: string } = {}): Promise<RunningS3> {
  const { path } = await ensureVersitygw();
  const root = mkdtempSync(join(tmpdir(), 'a2a-s3-'));
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'meta'));
  const port = await freePort('127.0.0.1');
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  const child = spawn(
    path,
    [
      '--port',
      `127.0.0.1:${port}`,
      '--access',
      accessKeyId,
      '--secret',
      secretAccessKey,
      '--quiet',
      'posix',
      '--sidecar',
      join(root, 'meta'),
      join(root, 'data'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => ((exited = `exited with ${signal ?? code}`), resolve())),
  );
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    }
    rmSync(root, { recursive: true, force: true });
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = options.bucket ?? 'a2a-blobs';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // as S3BlobStore does
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
  });
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (exited) throw new Error(`versitygw ${exited}: ${stderr}`);
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        break;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`versitygw did not answer on ${endpoint}: ${(err as Error).message}`);
        await sleep(100);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: {
      A2A_BLOB_STORE: 's3',
      A2A_S3_BUCKET: bucket,
      A2A_S3_PREFIX: options.prefix ?? 'a2a-temporal/',
      A2A_S3_ENDPOINT: endpoint,
      A2A_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
      AWS_REGION: 'us-east-1',
    },
    process: child,
    stop,
  };
}
