/** Blob keys: `sha256:<64 lowercase hex>`, the same in every store, so a reference survives a change of driver. */
import { createHash } from 'node:crypto';
import { InvalidBlobKeyError } from './errors.js';

const KEY = /^sha256:([0-9a-f]{64})$/;

/** The key of content whose SHA-256 is `sha256` (hex). */
export function blobKey(sha256: string): string {
  return `sha256:${sha256}`;
}

/**
 * The SHA-256 (hex) a key names. Keys arrive from history, claims and HTTP requests: anything
 * else than our exact format is refused, so no key ever becomes a path or an S3 key of its own.
 * @throws InvalidBlobKeyError
 */
export function digestOf(key: string): string {
  const match = KEY.exec(key);
  if (!match) throw new InvalidBlobKeyError(key);
  return match[1]!;
}

/**
 * The name an append session is kept under: a digest of the caller's id (a workflow id, an
 * artifact id: anything), so ids never become paths.
 */
export function sessionName(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 40);
}
