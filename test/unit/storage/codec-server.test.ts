import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startCodecServer } from '../../../storage/codec-server.js';
import { FsBlobStore } from '../../../storage/fs-blob-store.js';

describe('startCodecServer', () => {
  it('refuses to serve stored payloads beyond loopback without a token', async () => {
    const store = new FsBlobStore({ dir: tmpdir() });
    await expect(startCodecServer({ store }, { host: '0.0.0.0', port: 0 })).rejects.toThrow(
      'The codec server serves stored payloads and files: on 0.0.0.0 it needs a token (set A2A_CODEC_TOKEN), or A2A_CODEC_ALLOW_UNAUTHENTICATED=true behind a proxy that authenticates.',
    );
  });
});
