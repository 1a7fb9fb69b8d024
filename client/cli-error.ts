/** Exit codes of the CLI: 0 ok, 1 the operation failed, 2 usage error. */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * An error the CLI prints as one sentence with a way out (no stack trace unless `--verbose`).
 * `exitCode` is 1 (the operation failed) or 2 (usage error).
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = ExitCode.failed,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A usage error: wrong or missing arguments. */
export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}
