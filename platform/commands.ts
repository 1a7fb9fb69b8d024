/** Small helpers for running the machine's tools (python3, go, temporal) from setup code. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** The first of `names` that runs with `probeArgs`, or undefined when none is installed. */
export async function firstCommand(names: string[], probeArgs: string[]): Promise<string | undefined> {
  for (const name of names) {
    try {
      await run(name, probeArgs, { timeout: 10_000 });
      return name;
    } catch {
      // not installed; try the next name
    }
  }
  return undefined;
}

/** The first non-empty line of a failed command's stderr (or the error's message), at most 300 characters. */
export function firstLine(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const text = (e.stderr?.trim() || e.message || String(err)).split('\n').find((l) => l.trim()) ?? String(err);
  return text.trim().slice(0, 300);
}
