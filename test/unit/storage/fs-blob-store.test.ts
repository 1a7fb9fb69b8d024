import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FsBlobStore } from '../../../storage/fs-blob-store.js';
import { blobReferenceContract, blobStoreContract } from '../../helpers/blob-store-contract.js';

const root = mkdtempSync(join(tmpdir(), 'a2a-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

blobStoreContract('FsBlobStore', async () => new FsBlobStore({ dir: join(root, String(n++)) }));
blobReferenceContract('FsBlobStore', async () => new FsBlobStore({ dir: join(root, String(n++)) }));
