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

/** The variants whose throughput is measured (the durable design against the lower bound). */
export const THROUGHPUT_VARIANTS = ['direct', 'delegate_stream', 'delegate_poll'] as const satisfies readonly Variant[];

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
