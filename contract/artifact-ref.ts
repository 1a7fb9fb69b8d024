/**
 * A file kept in the blob store instead of history: what a delegation's result carries for an
 * artifact part whose bytes went to the store (Temporal's payloads stay small whatever an agent
 * sends). Plain JSON, sandbox-safe.
 */

/** One stored file. See [docs/files.md](../docs/files.md). */
export interface ArtifactRef {
  /** The file's name as the agent gave it (else the artifact's): untrusted text, sanitise it before it becomes a path. */
  name: string;
  /** The media type the agent gave (`application/octet-stream` when none). */
  mediaType: string;
  /** Bytes. */
  size: number;
  /** SHA-256 of the bytes, hex: check a download against it. */
  sha256: string;
  /** The blob store's key, `sha256:<hex>` (the same in every store driver). */
  key: string;
}

/**
 * The metadata key under which a part carries its {@link ArtifactRef} once its bytes are in the
 * store. Reserved: the tracking activity drops an agent's own value under this key, so a
 * reference in a result was always written by us (an agent cannot point at another's blob).
 */
export const ARTIFACT_REF_KEY = 'a2aTemporal.artifactRef';

/**
 * The metadata key under which a part describes a file still arriving when a tracking round ended
 * (`{name, mediaType, size}`, the size so far; no reference yet). Reserved like {@link ARTIFACT_REF_KEY}.
 */
export const PENDING_FILE_KEY = 'a2aTemporal.pendingFile';

/** A file as status and watch show it: its name, type and size (so far, while it arrives). */
export interface FileSummary {
  name: string;
  mediaType: string;
  size: number;
  /** In the blob store, complete (else still arriving). */
  stored: boolean;
}

/** The file a part stands for, when it is one of ours: stored (a reference) or still arriving. */
export function fileSummaryOf(part: { metadata?: Record<string, unknown> | undefined }): FileSummary | undefined {
  const ref = artifactRefOf(part);
  if (ref) return { name: ref.name, mediaType: ref.mediaType, size: ref.size, stored: true };
  const pending = part.metadata?.[PENDING_FILE_KEY] as Record<string, unknown> | undefined;
  if (typeof pending !== 'object' || pending === null) return undefined;
  const { name, mediaType, size } = pending;
  if (typeof name !== 'string' || typeof mediaType !== 'string' || typeof size !== 'number') return undefined;
  return { name, mediaType, size, stored: false };
}

/** The reference a part carries, when it carries a well-formed one. */
export function artifactRefOf(part: { metadata?: Record<string, unknown> | undefined }): ArtifactRef | undefined {
  const ref = part.metadata?.[ARTIFACT_REF_KEY];
  if (typeof ref !== 'object' || ref === null) return undefined;
  const { name, mediaType, size, sha256, key } = ref as Record<string, unknown>;
  if (
    typeof name !== 'string' ||
    typeof mediaType !== 'string' ||
    typeof size !== 'number' ||
    !Number.isSafeInteger(size) ||
    size < 0 ||
    typeof sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(sha256) ||
    key !== `sha256:${sha256}`
  ) {
    return undefined;
  }
  return { name, mediaType, size, sha256, key };
}

/**
 * A stored file's link in markdown we write (the release report, a delegation's current details):
 * the codec server's download path, relative, named and typed for the download. The codec server
 * turns it into an absolute link it signs when it decodes the payload for the Web UI
 * (storage/codec-server.ts), so it resolves against wherever that server is published.
 * Everything outside `[A-Za-z0-9-_.~]` is percent-encoded, `(` and `)` too, so an agent's file
 * name cannot end the markdown link early.
 */
export function fileLink(ref: Pick<ArtifactRef, 'key' | 'name' | 'mediaType'>): string {
  return `blobs/${ref.key}?name=${linkComponent(ref.name)}&type=${linkComponent(ref.mediaType)}`;
}

function linkComponent(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `512 B`, `2.9 KiB`, `5.7 MiB`: a file's size for people. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
