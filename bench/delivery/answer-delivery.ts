/**
 * How the bench client learns that a Temporal delegation is waiting for its answer. Every
 * Temporal variant gets the same mechanism in a given figure, so the ratios compare designs, not
 * delivery paths; the answer itself is always the `answer` signal.
 */
import type { WorkflowHandle } from '@temporalio/client';

export interface AnswerDelivery {
  /** Resolves once the workflow waits for input (rejects if it ended first). */
  awaitQuestion(handle: WorkflowHandle): Promise<void>;
  close(): void;
}
