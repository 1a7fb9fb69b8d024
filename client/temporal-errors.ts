import { CliError } from './cli-error.js';

/** A CliError saying the Temporal server cannot be reached, when `err` is a connection failure. */
export function unreachableServer(address: string, err: unknown): CliError | undefined {
  const text = String((err as Error)?.message ?? err);
  if (!/connect|ECONNREFUSED|UNAVAILABLE|transport|deadline|timed out/i.test(text)) return undefined;
  return new CliError(
    `Cannot reach the Temporal server at ${address}. Start one with \`npx a2a-temporal server\`, or point TEMPORAL_ADDRESS at yours.`,
    1,
    { cause: err },
  );
}
