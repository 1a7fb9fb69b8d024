import { afterAll, beforeAll } from 'vitest';
import { S3BlobStore } from '../../../storage/s3-blob-store.js';
import { blobReferenceContract, blobStoreContract } from '../../helpers/blob-store-contract.js';
import { startS3Server, type RunningS3 } from '../../helpers/s3-server.js';

let s3: RunningS3;
const stores: S3BlobStore[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await s3?.stop();
});
let n = 0;

// Parts of the smallest size S3 allows (5 MiB), so the contract's 6-13 MiB blobs span several.
const openStore = async () => {
  const store = new S3BlobStore({
    bucket: s3.bucket,
    prefix: `t${n++}/`,
    partSize: 5 * 1024 * 1024,
    client: {
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    },
  });
  stores.push(store);
  return store;
};
blobStoreContract('S3BlobStore on versitygw', openStore);
blobReferenceContract('S3BlobStore on versitygw', openStore);
