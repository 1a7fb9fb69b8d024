import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesOf, type ArtifactFile } from '../../../client/artifacts.js';
import { saveArtifactFiles } from '../../../client/save-artifacts.js';
import { ARTIFACT_REF_KEY, type ArtifactRef } from '../../../contract/index.js';
import { FsBlobStore } from '../../../storage/fs-blob-store.js';
import { BlobNotFoundError } from '../../../storage/errors.js';

const root = mkdtempSync(join(tmpdir(), 'a2a-save-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const store = new FsBlobStore({ dir: join(root, 'blobs') });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function stored(bytes: Buffer, name: string): Promise<ArtifactRef> {
  const blob = await store.put(bytes);
  return { name, mediaType: 'application/zip', size: blob.size, sha256: blob.sha256, key: blob.key };
}

function files(parts: unknown[]): ArtifactFile[] {
  return filesOf({ agent: 'a', artifacts: [{ artifactId: 'x', name: 'out', parts }] as never }, 'wf');
}

describe('saveArtifactFiles', () => {
  it('writes stored files from the blob store and inline ones, under unique names, never over an existing file', async () => {
    const dir = join(root, 'one');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const bytes = Buffer.alloc(200_000, 3);
    const ref = await stored(bytes, 'bundle.zip');
    const saved = await saveArtifactFiles(
      files([
        { text: 'first', filename: 'notes.txt' },
        { data: 1 },
        { text: 'second', filename: 'NOTES.txt' },
        { text: '', metadata: { [ARTIFACT_REF_KEY]: ref } },
      ]),
      dir,
      { store },
    );
    expect(saved.map((s) => s.path.slice(dir.length + 1))).toEqual([
      'notes-2.txt',
      'out.json',
      'NOTES-3.txt',
      'bundle.zip',
    ]);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'notes-2.txt'), 'utf8')).toBe('first');
    expect(sha256(readFileSync(join(dir, 'bundle.zip')))).toBe(ref.sha256);
    expect(saved[3]!.sha256).toBe(ref.sha256);
  });

  it('writes nothing when a stored file is missing, naming its key', async () => {
    const dir = join(root, 'two');
    const ref = await stored(Buffer.from('gone soon'), 'gone.txt');
    await store.delete(ref.key);
    const error = await saveArtifactFiles(
      files([
        { text: 'kept?', filename: 'a.txt' },
        { text: '', metadata: { [ARTIFACT_REF_KEY]: ref } },
      ]),
      dir,
      { store },
    ).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BlobNotFoundError);
    expect((error as Error).message).toContain(ref.key);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses bytes that are not the ones the reference names, writing nothing', async () => {
    const dir = join(root, 'three');
    const real = await stored(Buffer.from('real bytes'), 'r.bin');
    const lie: ArtifactRef = { ...real, size: 5 };
    await expect(
      saveArtifactFiles(files([{ text: '', metadata: { [ARTIFACT_REF_KEY]: lie } }]), dir, { store }),
    ).rejects.toThrow(/not the file "r.bin"/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
