import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../../../platform/paths.js';
import { loadBlobSettings, loadCodecServerSettings, openBlobStore } from '../../../storage/config.js';

describe('loadBlobSettings', () => {
  it('defaults to the filesystem store under .data/blobs and Temporal’s 256 KiB threshold', () => {
    expect(loadBlobSettings({})).toEqual({
      store: { kind: 'fs', dir: join(dataDir, 'blobs') },
      externalStorage: true,
      thresholdBytes: 262_144,
      maxPayloadBytes: 64 * 1024 * 1024,
      artifactThresholdBytes: 65_536,
    });
  });

  it('reads the artifact threshold and the hard cap per artifact', () => {
    const settings = loadBlobSettings({ A2A_ARTIFACT_THRESHOLD_BYTES: '0', A2A_MAX_ARTIFACT_BYTES: '1048576' });
    expect([settings.artifactThresholdBytes, settings.maxArtifactBytes]).toEqual([0, 1_048_576]);
    expect(() => loadBlobSettings({ A2A_MAX_ARTIFACT_BYTES: '0' })).toThrow(
      /^Environment variable A2A_MAX_ARTIFACT_BYTES is invalid/,
    );
  });

  it('reads an S3-compatible store, its credentials left to the AWS SDK', () => {
    const settings = loadBlobSettings({
      A2A_BLOB_STORE: 's3',
      A2A_S3_BUCKET: 'files',
      A2A_S3_ENDPOINT: 'http://127.0.0.1:7070',
      A2A_S3_FORCE_PATH_STYLE: 'true',
      A2A_BLOB_THRESHOLD_BYTES: '0',
      AWS_SECRET_ACCESS_KEY: 'never read by us',
    });
    expect(settings.store).toEqual({
      kind: 's3',
      bucket: 'files',
      prefix: 'a2a-temporal/',
      endpoint: 'http://127.0.0.1:7070',
      forcePathStyle: true,
    });
    expect(settings.thresholdBytes).toBe(0);
    const store = openBlobStore(settings.store);
    expect([store.kind, store.location]).toEqual(['s3', 's3://files/a2a-temporal/']);
  });

  it('says which variable is wrong, in one sentence', () => {
    expect(() => loadBlobSettings({ A2A_BLOB_STORE: 's3' })).toThrow(
      'A2A_BLOB_STORE is s3, but A2A_S3_BUCKET is not set; name the bucket that keeps the blobs.',
    );
    expect(() => loadBlobSettings({ A2A_BLOB_STORE: 'gcs' })).toThrow(
      /^Environment variable A2A_BLOB_STORE is invalid/,
    );
    expect(() => loadBlobSettings({ A2A_S3_PART_SIZE_BYTES: '1000' })).toThrow(
      /A2A_S3_PART_SIZE_BYTES is invalid: must be at least 5 MiB/,
    );
    expect(() => loadBlobSettings({ A2A_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/must be true or false/);
    expect(() => loadBlobSettings({ A2A_S3_ENDPOINT: 'file:///tmp' })).toThrow(/A2A_S3_ENDPOINT is invalid/);
  });
});

describe('loadCodecServerSettings', () => {
  it('listens on loopback for the embedded UI unless told otherwise', () => {
    expect(loadCodecServerSettings({})).toEqual({
      host: '127.0.0.1',
      port: 8081,
      corsOrigins: ['http://127.0.0.1:8233', 'http://localhost:8233'],
      maxBodyBytes: 8 * 1024 * 1024,
      allowUnauthenticated: false,
    });
    expect(
      loadCodecServerSettings({
        A2A_CODEC_TOKEN: 'a-token-of-20-chars!',
        A2A_CODEC_CORS_ORIGINS: ' https://ui.example/ ,',
      }),
    ).toMatchObject({ token: 'a-token-of-20-chars!', corsOrigins: ['https://ui.example'] });
  });

  it('refuses a short token', () => {
    expect(() => loadCodecServerSettings({ A2A_CODEC_TOKEN: 'short' })).toThrow(
      'Environment variable A2A_CODEC_TOKEN is invalid: must be at least 16 characters.',
    );
  });
});
