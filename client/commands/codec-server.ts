/**
 * `a2a-temporal codec-server`: the codec server for the Temporal Web UI and the `temporal` CLI
 * (storage/codec-server.ts): resolves External Storage's claims from the blob store the workers
 * write to (A2A_BLOB_*), serves stored files, behind A2A_CODEC_TOKEN. Runs until Ctrl-C.
 */
import type { Command } from 'commander';
import { startCodecServer } from '../../storage/codec-server.js';
import { loadBlobSettings, loadCodecServerSettings, openBlobStore } from '../../storage/config.js';
import { CliError } from '../cli-error.js';
import { waitForExitSignal } from '../wait-for-exit.js';
import { parsePort } from './server.js';

interface CodecServerOptions {
  host?: string;
  port?: string;
  corsOrigin?: string[];
}

export function registerCodecServerCommand(program: Command): void {
  program
    .command('codec-server')
    .description(
      "serve Temporal's codec protocol for the Web UI and the temporal CLI: shows payloads kept in the blob store (External Storage) and serves stored files (Ctrl-C stops it)",
    )
    .option(
      '--host <ip>',
      'address to bind (env A2A_CODEC_HOST, default 127.0.0.1; beyond loopback it needs A2A_CODEC_TOKEN)',
    )
    .option('--port <port>', 'port to bind, 0 for a free one (env A2A_CODEC_PORT, default 8081)')
    .option(
      '--cors-origin <url...>',
      "the Web UI's origin, repeatable (env A2A_CODEC_CORS_ORIGINS, comma-separated; default the embedded UI's, :8233)",
    )
    .action(async (opts: CodecServerOptions) => {
      let settings;
      let blobs;
      try {
        settings = loadCodecServerSettings();
        blobs = loadBlobSettings();
      } catch (err) {
        throw new CliError((err as Error).message, 2, { cause: err });
      }
      const store = openBlobStore(blobs.store);
      const server = await startCodecServer(
        {
          store,
          ...(settings.token ? { token: settings.token } : {}),
          corsOrigins: opts.corsOrigin?.length ? opts.corsOrigin : settings.corsOrigins,
          maxBodyBytes: settings.maxBodyBytes,
          maxPayloadBytes: blobs.maxPayloadBytes,
          thresholdBytes: blobs.thresholdBytes,
          ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
        },
        {
          host: opts.host ?? settings.host,
          port: opts.port !== undefined ? parsePort(opts.port, '--port') : settings.port,
          allowUnauthenticated: settings.allowUnauthenticated,
        },
      ).catch((err: unknown) => {
        throw new CliError((err as Error).message, 1, { cause: err });
      });
      console.log(`Codec server at ${server.url} (blobs: ${store.location})`);
      console.log(
        settings.token
          ? 'Requests need A2A_CODEC_TOKEN: "Authorization: Bearer <token>" (temporal CLI: --codec-auth), or the endpoint <url>/<token> for a UI.'
          : 'No token (A2A_CODEC_TOKEN unset): anyone who reaches this address can read stored payloads.',
      );
      console.log(`Web UI: Settings → Data Encoder → ${server.url}; temporal CLI: --codec-endpoint ${server.url}`);
      await waitForExitSignal();
      await server.close();
      await store.close();
    });
}
