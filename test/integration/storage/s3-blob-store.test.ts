/**
 * The S3 driver against a real S3-compatible server (versitygw), configured the way operators
 * configure it: A2A_BLOB_STORE=s3 and A2A_S3_* in the environment, credentials from the AWS
 * SDK's chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY here).
 */
import { afterAll, beforeAll } from 'vitest';
import type { BlobStore } from '../../../storage/blob-store.js';
import { loadBlobSettings, openBlobStore } from '../../../storage/config.js';
import { blobReferenceContract, blobStoreContract } from '../../helpers/blob-store-contract.js';
import { startS3Server, type RunningS3 } from '../../helpers/s3-server.js';

let s3: RunningS3;
const stores: BlobStore[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
  Object.assign(process.env, s3.env);
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await s3?.stop();
});
let n = 0;

// Parts of the smallest size S3 allows (5 MiB), so the contract's 6-13 MiB blobs span several.
const openStore = async () => {
  const settings = loadBlobSettings({
    ...process.env,
    A2A_S3_PREFIX: `t${n++}/`,
    A2A_S3_PART_SIZE_BYTES: String(5 * 1024 * 1024),
  });
  const store = openBlobStore(settings.store);
  stores.push(store);
  return store;
};
blobStoreContract('S3BlobStore on versitygw', openStore);
blobReferenceContract('S3BlobStore on versitygw', openStore);
