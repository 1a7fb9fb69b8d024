/**
 * The one line that says what is wrong while a delegation runs: `status` prints it (with the live
 * parts: attempts so far, the next try) and the delegation's current details in the Temporal UI
 * show it as the workflow last learned it. Pure: workflow code uses it too.
 */

/** What a problem line says. Times are ISO 8601 and shown as UTC times of day. */
export interface ProblemLine {
  kind: 'agent-unreachable' | 'activity-failing';
  /** The activity it happens in, without our `a2a.` prefix (`streamMessage`, `getTask`…). */
  activity: string;
  since: string;
  /** Requests left unanswered so far (omitted where it is not known live, as in the UI). */
  attempts?: number;
  lastError: string;
  nextAttemptAt?: string;
  givesUpAt?: string;
}

/**
 * "agent unreachable since 14:02:11Z (7 attempts, last: connection refused …), next try in 8 s;
 * gives up at 14:04:11Z". `now`: the clock "next try in" counts from.
 */
export function problemLine(problem: ProblemLine, now = Date.now()): string {
  const time = (iso: string) => `${iso.slice(11, 19)}Z`;
  const what = problem.kind === 'agent-unreachable' ? 'agent unreachable' : `${problem.activity} failing`;
  const tries =
    problem.attempts === undefined ? '' : `${problem.attempts} attempt${problem.attempts === 1 ? '' : 's'}, `;
  let line = `${what} since ${time(problem.since)} (${tries}last: ${problem.lastError})`;
  if (problem.nextAttemptAt) {
    const inS = Math.max(0, Math.round((Date.parse(problem.nextAttemptAt) - now) / 1000));
    line += `, next try in ${inS} s`;
  }
  if (problem.givesUpAt) line += `; gives up at ${time(problem.givesUpAt)}`;
  return line;
}
