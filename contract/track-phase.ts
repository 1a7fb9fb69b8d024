/**
 * Where a followed task stands after a read or a tracking round. Pure: the activities decide
 * with it and push mode's workflow code chooses what to register or delete with it.
 */

/** Where the task stands when the read or tracking round ends. */
export type TrackPhase =
  'running' | 'completed' | 'failed' | 'rejected' | 'canceled' | 'input-required' | 'auth-required';

/** The phases after which the agent has nothing more to say about the task (nor deliver: a push config ends with its task). */
export const ENDED_PHASES: ReadonlySet<TrackPhase> = new Set(['completed', 'failed', 'rejected', 'canceled']);

/**
 * Whether a task in `phase` needs a push config to be followed: it works on, or waits for
 * authentication that arrives out of band. One that asks for input waits for our answer (its
 * deliveries could only repeat the question), and one that ended delivers nothing more.
 */
export function needsPushConfig(phase: TrackPhase): boolean {
  return phase === 'running' || phase === 'auth-required';
}
