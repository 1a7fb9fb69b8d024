/**
 * Runs README commands as a reader pastes them: the text as written, in bash, from the
 * repository's folder. `npx --no-install a2a-temporal` is the CLI from the sources (as
 * test/helpers/cli-process.ts runs it; an installed package runs the compiled copy of the same
 * code), `temporal` is the run's Temporal CLI, everything else is the machine's own (npm, openssl).
 * Each command runs in a process group of its own, so stopping it stops what it started.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../platform/paths.js';
import { stripUndefined } from '../../../platform/strip-undefined.js';
import { waitFor } from '../../helpers/wait.js';

export interface ShellProcess {
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  stdout(): string;
  /** Resolves to the first match of `pattern` in the output; rejects if the command ends first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves to the exit code once the command has ended. */
  exited: Promise<number>;
  /** Ctrl-C: SIGINT to the command's process group, then its exit code (SIGKILL after 15 s). */
  stop(): Promise<number>;
}

export type ShellEnv = Record<string, string | undefined>;

/** A folder with the `npx` and `temporal` the README's commands find first on PATH. */
export function commandShims(temporalCliPath: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-readme-bin-'));
  writeFileSync(
    join(dir, 'npx'),
    [
      '#!/bin/sh',
      // Only the form that never fetches from the registry: a bare `npx a2a-temporal` fails here.
      'if [ "$1" = --no-install ] && [ "$2" = a2a-temporal ]; then',
      '  shift 2',
      `  exec '${process.execPath}' --import tsx '${join(packageRoot, 'client', 'cli.ts')}' "$@"`,
      'fi',
      'echo "npx $*: the README examples test runs only npx --no-install a2a-temporal" >&2',
      'exit 127',
      '',
    ].join('\n'),
  );
  chmodSync(join(dir, 'npx'), 0o755);
  symlinkSync(temporalCliPath, join(dir, 'temporal'));
  return dir;
}

/** Starts `text` in bash with `env` (a value of undefined removes that variable) and returns at once. */
export function startShell(text: string, env: ShellEnv, bin: string): ShellProcess {
  const child = spawn('bash', ['-c', text], {
    cwd: packageRoot,
    env: stripUndefined({ ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}` }) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'], // no terminal: questions are answered by the README's own commands
    detached: true,
  });
  let all = '';
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => ((out += chunk.toString()), (all += chunk.toString())));
  child.stderr.on('data', (chunk: Buffer) => (all += chunk.toString()));
  let code: number | undefined;
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (exitCode, signal) => resolve((code = exitCode ?? (signal ? 128 : 1)))),
  );
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group has gone already.
    }
  };
  return {
    output: () => all,
    stdout: () => out,
    exited,
    waitFor: (pattern, timeoutMs = 60_000) =>
      waitFor(
        () => {
          const match = pattern.exec(all);
          if (match) return match;
          if (code !== undefined) throw new Error(`it exited with ${code} first; its output:\n${all}`);
          return undefined;
        },
        { timeoutMs, intervalMs: 50, what: `${pattern} from \`${text}\`` },
      ),
    async stop() {
      if (code === undefined) group('SIGINT');
      const timer = setTimeout(() => group('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      group('SIGKILL'); // whatever the command left behind in its group
      return result;
    },
  };
}

/** Runs `text` to its end (at most 90 s) and resolves to its exit code and output. */
export async function runShell(
  text: string,
  env: ShellEnv,
  bin: string,
): Promise<{ code: number; output: string; stdout: string }> {
  const shell = startShell(text, env, bin);
  const timer = setTimeout(() => void shell.stop(), 90_000);
  const code = await shell.exited;
  clearTimeout(timer);
  return { code, output: shell.output(), stdout: shell.stdout() };
}
