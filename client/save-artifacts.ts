/**
 * `artifacts --save DIR`: every file written under DIR and nowhere else. Names come from agents,
 * so each is made one safe path segment (storage/file-name.ts), made unique, and never replaces
 * a file already there (written to a temporary file, then hard-linked into place, which fails
 * rather than overwrite). All or nothing: a `url` part the agent's policy forbids is refused
 * before anything is written, and a failure part-way removes what this run wrote.
 */
import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BlobStore } from '../storage/blob-store.js';
import { safeFileName } from '../storage/file-name.js';
import { readArtifact } from '../storage/read-artifact.js';
import type { UrlDownloads } from './artifact-download.js';
import type { ArtifactFile } from './artifacts.js';

export interface SaveDeps {
  store: BlobStore;
  /** For `url` parts (built only when there are some). */
  downloads?: () => UrlDownloads;
  signal?: AbortSignal;
}

export interface SavedFile {
  file: ArtifactFile;
  /** Where it was written. */
  path: string;
  bytes: number;
  sha256: string;
}

/** Extensions for files whose name has none, by media type. */
const EXTENSIONS: Record<string, string> = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/csv': '.csv',
  'text/html': '.html',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
};

/** Writes `files` under `dir` (created when missing). @throws the first failure; nothing of this run stays behind. */
export async function saveArtifactFiles(files: ArtifactFile[], dir: string, deps: SaveDeps): Promise<SavedFile[]> {
  const folder = resolve(dir);
  const urls = files.filter((f) => f.kind === 'url');
  const downloads = urls.length ? deps.downloads?.() : undefined;
  const written: string[] = [];
  try {
    // The policy first: a forbidden URL refuses the whole save before a byte is written.
    for (const file of urls) await downloads!.check(file);
    await mkdir(folder, { recursive: true });
    const taken = new Set((await readdir(folder)).map((n) => n.toLowerCase()));
    const saved: SavedFile[] = [];
    for (const [i, file] of files.entries()) {
      const name = uniqueName(fileNameOf(file, i), taken);
      const path = join(folder, name);
      const { bytes, sha256 } = await writeNew(path, await contentOf(file, deps, downloads));
      written.push(path);
      if (file.ref && sha256 !== file.ref.sha256) throw new Error(`"${name}" does not match its SHA-256.`);
      saved.push({ file, path, bytes, sha256 });
    }
    return saved;
  } catch (err) {
    await Promise.all(written.map((path) => rm(path, { force: true })));
    throw err;
  } finally {
    await downloads?.close();
  }
}

function fileNameOf(file: ArtifactFile, index: number): string {
  const name = safeFileName(file.name, `artifact-${index + 1}`);
  const ext = EXTENSIONS[file.mediaType.split(';')[0]!.trim().toLowerCase()];
  return ext && !/\.[A-Za-z0-9]{1,10}$/.test(name) ? `${name}${ext}` : name;
}

/** `name`, or `name-2.ext`, `name-3.ext`… when taken (case-insensitively: macOS and Windows folders). */
function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

async function contentOf(
  file: ArtifactFile,
  deps: SaveDeps,
  downloads: UrlDownloads | undefined,
): Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>> {
  switch (file.kind) {
    case 'stored':
      return readArtifact(file.ref!, { store: deps.store, ...(deps.signal ? { signal: deps.signal } : {}) });
    case 'url':
      return downloads!.open(file, deps.signal);
    case 'raw':
      return [Buffer.from(file.content!, 'base64')];
    default:
      return [Buffer.from(file.content!, 'utf8')];
  }
}

/** Writes a new file at `path` (never replacing one): a temporary file beside it, linked into place. */
async function writeNew(
  path: string,
  content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<{ bytes: number; sha256: string }> {
  const temporary = `${path}.${randomUUID()}.part`;
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    const out = await open(temporary, 'wx');
    try {
      for await (const chunk of content) {
        hash.update(chunk);
        bytes += chunk.byteLength;
        await out.write(chunk);
      }
    } finally {
      await out.close();
    }
    await link(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
  return { bytes, sha256: hash.digest('hex') };
}
