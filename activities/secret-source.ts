/**
 * Secrets named by the agents file: an environment variable, or a file (a Kubernetes or compose
 * secret), checked again on every use, so a rotated secret is picked up without a restart.
 *
 * A file is a stranger's too: someone may point the entry at a FIFO, a device or a huge file.
 * Only a regular file of at most 1 MiB is read; it is opened non-blocking (a FIFO opened for
 * reading would wait for a writer forever, holding one of libuv's four threads: four such
 * requests stopped every DNS lookup of the worker); each check and read must finish within 2 s;
 * and the value is read again only when the file changed (a 200 MB file used to be read whole
 * on every request). Whatever is wrong ends in a CredentialMissingError naming the file and why.
 */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { CredentialMissingError } from './agent-registry.js';

/** Where one secret lives: exactly one of the two is set. */
export interface SecretRef {
  env?: string | undefined;
  file?: string | undefined;
}

/** The largest secret file read (a PEM chain is a few KB; anything bigger is a wrong path). */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;

/** How long checking or reading a secret file may take (local files take microseconds). */
const SECRET_FILE_TIMEOUT_MS = 2000;

/** The last value read from each file, with the identity it had then (device, inode, size, times). */
const readValues = new Map<string, { stamp: string; value: string }>();

/** The check-and-read under way for each file: callers share it, and no second one starts while it hangs. */
const underWay = new Map<string, Promise<string>>();

/** What is wrong with a secret file, as the end of the sentence "<the file>, which …". */
class UnusableFile extends Error {}

/**
 * The secret's current value, trimmed of surrounding whitespace (files usually end in a newline).
 * @throws CredentialMissingError naming the variable or file, what it should hold and what is wrong.
 */
export async function readSecret(ref: SecretRef, env: NodeJS.ProcessEnv, what: string, agent: string): Promise<string> {
  if (ref.env !== undefined) {
    const value = env[ref.env]?.trim();
    if (value) return value;
    throw new CredentialMissingError(
      `Agent "${agent}" needs the environment variable ${ref.env} (${what}), which is not set in the worker's environment; set it and restart the worker.`,
    );
  }
  const file = ref.file ?? '';
  const needs = `Agent "${agent}" needs the file ${file} (${what})`;
  try {
    return await withinTimeout(file, shared(file));
  } catch (err) {
    if (err instanceof UnusableFile) throw new CredentialMissingError(`${needs}, which ${err.message}.`);
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CredentialMissingError(`${needs}, which cannot be read (${why}); mount the secret there.`);
  }
}

function shared(file: string): Promise<string> {
  let read = underWay.get(file);
  if (!read) {
    read = current(file).finally(() => underWay.delete(file));
    underWay.set(file, read);
  }
  return read;
}

function withinTimeout(file: string, read: Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new UnusableFile(
            `could not be read within ${SECRET_FILE_TIMEOUT_MS / 1000} s (its file system does not answer); mount the secret on a local file system`,
          ),
        ),
      SECRET_FILE_TIMEOUT_MS,
    );
    timer.unref();
  });
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}

/** The file's value: the cached one while the file is unchanged, else read again. */
async function current(file: string): Promise<string> {
  const stamp = usable(await stat(file, { bigint: true }));
  const cached = readValues.get(file);
  if (cached?.stamp === stamp) return cached.value;
  // O_NONBLOCK: should the file have become a FIFO since the stat, opening it does not wait for a writer.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = usable(await handle.stat({ bigint: true }));
    const buffer = Buffer.alloc(MAX_SECRET_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_SECRET_FILE_BYTES) throw tooLarge(length);
    }
    const value = buffer.subarray(0, length).toString('utf8').trim();
    if (!value) throw new UnusableFile('is empty; write the secret into it');
    readValues.set(file, { stamp: opened, value });
    return value;
  } finally {
    await handle.close();
  }
}

/** The file's identity when it is a regular file of at most 1 MiB. @throws UnusableFile saying what it is instead. */
function usable(info: BigIntStats): string {
  if (!info.isFile()) throw new UnusableFile(`is ${kindOf(info)}, not a regular file; mount the secret as a file`);
  if (info.size > MAX_SECRET_FILE_BYTES) throw tooLarge(Number(info.size));
  return [info.dev, info.ino, info.size, info.mtimeNs, info.ctimeNs].join(':');
}

function tooLarge(size: number): UnusableFile {
  return new UnusableFile(
    `is ${size} bytes, more than a secret file may hold (${MAX_SECRET_FILE_BYTES} bytes): it is not a secret; point the entry at the secret's file`,
  );
}

function kindOf(info: BigIntStats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isDirectory()) return 'a directory';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
