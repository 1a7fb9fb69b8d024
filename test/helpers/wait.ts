import { causeChain } from '../../platform/grpc-status.js';

/**
 * Waits for an observable condition (a query result, a describe() field), checking every
 * `intervalMs`: this waits FOR the event, it does not guess how long the event takes.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  {
    timeoutMs = 30_000,
    intervalMs = 50,
    what = 'the condition',
    seen,
  }: {
    timeoutMs?: number;
    intervalMs?: number;
    what?: string;
    /** What the probe last saw, for the timeout's message (e.g. a status's phase). */
    seen?: () => string | undefined;
  } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: { error: unknown; at: number; count: number } | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = { error, at: Date.now(), count: (lastError?.count ?? 0) + 1 };
    }
    if (Date.now() > deadline) {
      const saw = seen?.();
      const failed = lastError
        ? `; ${lastError.count} probes failed, the last ${Date.now() - lastError.at} ms before the end: ${describeChain(lastError.error)}`
        : '';
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${saw ? ` (last seen: ${saw})` : ''}${failed}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** An error and its causes, each as `Name: message`, joined by " ← caused by ". */
function describeChain(error: unknown): string {
  return causeChain(error)
    .map((e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)))
    .join(' ← caused by ');
}
