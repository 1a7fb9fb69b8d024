/** The implementations the bench runs side by side. */
export const VARIANTS = [
  'direct',
  'blocking_activity',
  'timer_poll',
  'delegate_stream',
  'delegate_poll',
  'delegate_push',
] as const;
export type Variant = (typeof VARIANTS)[number];

export type TemporalVariant = Exclude<Variant, 'direct'>;

/**
 * The rows of the throughput table: every variant but push (its receiver adds a path of its own),
 * and `empty_workflow` (a workflow that returns at once: what the server and the worker do per
 * workflow at all, the ceiling of every durable design on this machine).
 */
export const THROUGHPUT_VARIANTS = [
  'direct',
  'empty_workflow',
  'blocking_activity',
  'timer_poll',
  'delegate_stream',
  'delegate_poll',
] as const;
export type ThroughputVariant = (typeof THROUGHPUT_VARIANTS)[number];

/** The workflow type and `delegate` mode behind a Temporal variant. */
export function workflowOf(variant: TemporalVariant): { workflowType: string; mode: 'stream' | 'poll' | 'push' } {
  switch (variant) {
    case 'blocking_activity':
      return { workflowType: 'blockingActivity', mode: 'stream' };
    case 'timer_poll':
      return { workflowType: 'timerPoll', mode: 'poll' };
    case 'delegate_stream':
      return { workflowType: 'delegate', mode: 'stream' };
    case 'delegate_poll':
      return { workflowType: 'delegate', mode: 'poll' };
    case 'delegate_push':
      return { workflowType: 'delegate', mode: 'push' };
  }
}
