/**
 * `a2a-temporal artifacts <id> [--save DIR]`: the files of a finished delegation or release
 * (name, type, size, agent), and with `--save` the files themselves (see save-artifacts.ts).
 */
import type { Command } from 'commander';
import { isA2AError } from '../../a2a/index.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { agentDownloads } from '../artifact-download.js';
import { listArtifactFiles, type ArtifactFile } from '../artifacts.js';
import { CliError } from '../cli-error.js';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { saveArtifactFiles } from '../save-artifacts.js';
import { sizeText } from '../../contract/artifact-ref.js';
import { terminalJson, terminalSafe } from '../terminal-text.js';

interface ArtifactsOptions extends GlobalOptions {
  save?: string;
}

export function registerArtifactsCommand(program: Command): void {
  withConnectionOptions(program.command('artifacts <id>'))
    .description(
      "list the files of a finished delegation, or of a release's delegations (name, type, size, agent); --save writes them",
    )
    .option(
      '--save <dir>',
      "write the files into this folder (created when missing; names are sanitised, nothing is overwritten; url parts are fetched by the agent's outbound policy)",
    )
    .option('--json', 'print the list as JSON')
    .action(async (id: string, opts: ArtifactsOptions) =>
      withContext(opts, async (context) => {
        const listing = await listArtifactFiles(context, id);
        for (const note of listing.unfinished) console.error(`note: ${terminalSafe(note)} has no artifacts to list`);
        if (!opts.save) {
          console.log(opts.json ? terminalJson(listing.files.map(summary), 2) : table(listing.files));
          return;
        }
        const saved = await saveArtifactFiles(listing.files, opts.save, {
          store: context.blobs.store,
          downloads: () => {
            try {
              return agentDownloads(loadWorkerConfig(process.env));
            } catch (err) {
              throw new CliError((err as Error).message, 2, { cause: err });
            }
          },
        }).catch((err: unknown) => {
          if (isA2AError(err))
            throw new CliError(`${err.message} (A2A_${err.code}); nothing was written.`, 1, { cause: err });
          throw err;
        });
        if (opts.json) {
          console.log(
            terminalJson(
              saved.map((s) => ({ ...summary(s.file), path: s.path, bytes: s.bytes, sha256: s.sha256 })),
              2,
            ),
          );
          return;
        }
        console.log(`Saved ${saved.length} file${saved.length === 1 ? '' : 's'} to ${terminalSafe(opts.save)}:`);
        for (const s of saved) console.log(`  ${terminalSafe(s.path)}  ${sizeText(s.bytes)}  ${s.sha256.slice(0, 12)}`);
      }),
    );
}

function summary(file: ArtifactFile) {
  return {
    name: file.name,
    mediaType: file.mediaType,
    size: file.size ?? null,
    kind: file.kind,
    agent: file.agent,
    delegation: file.workflowId,
    artifactId: file.artifactId,
    ...(file.url ? { url: file.url } : {}),
    ...(file.ref ? { key: file.ref.key, sha256: file.ref.sha256 } : {}),
  };
}

function table(files: ArtifactFile[]): string {
  if (!files.length) return 'No artifacts.';
  const rows = [
    ['NAME', 'TYPE', 'SIZE', 'AGENT', 'DELEGATION'],
    ...files.map((f) => [f.name, f.mediaType, f.kind === 'url' ? 'url' : sizeText(f.size ?? 0), f.agent, f.workflowId]),
  ].map((row) => row.map((cell) => terminalSafe(cell).replace(/\s+/g, ' ').slice(0, 60)));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
