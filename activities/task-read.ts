import type { A2AClient, CallOptions, GetTaskParams, Task } from '../a2a/index.js';

/**
 * An answer of at least this many bytes (a stream event, a GetTask body) is read as it arrives
 * when it carries files for the store (its file bytes spilled, see a2a/streamed-event.ts), not
 * held whole: a chunk of 1 MB held as text, parsed, then decoded is several large copies that V8
 * collects late, which raised a worker's memory by about 1 MB per event over a 200 MB file; read
 * as it arrives it costs a piece of the answer.
 */
export const READ_AS_IT_ARRIVES_BYTES = 512 * 1024;

/**
 * One GetTask whose files may pass the body cap (poll mode's reads, push mode's read): with
 * `fileBytes`, a large body is read as it arrives and its file parts carry spilled bytes while
 * `use` runs (the spool copies them to the store); the temporary file is removed after it.
 */
export async function withTaskRead<T>(
  client: A2AClient,
  params: GetTaskParams,
  options: Omit<CallOptions, 'fileBytes'>,
  fileBytes: Omit<NonNullable<CallOptions['fileBytes']>, 'onSpilled'> | undefined,
  use: (task: Task) => Promise<T>,
): Promise<T> {
  const disposals: (() => void)[] = [];
  try {
    const task = await client.getTask(
      params,
      fileBytes
        ? { ...options, fileBytes: { ...fileBytes, onSpilled: (dispose) => disposals.push(dispose) } }
        : options,
    );
    return await use(task);
  } finally {
    for (const dispose of disposals) dispose();
  }
}
