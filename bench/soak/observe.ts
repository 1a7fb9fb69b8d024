/**
 * What the soak watches while it runs: how long each delegation stops following its task after a
 * kill (from `describe()`: the pending activity's start and heartbeat times, whatever the
 * activity is called), and whether `status` ever shows less report text than it showed before.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time.js';
import { readStatus } from '../../client/status-view.js';
import type { CliContext } from '../../client/context.js';

/** How a delegation came through one event. */
export type Resumption =
  | { kind: 'resumed'; afterMs: number }
  | { kind: 'parked' } // nothing ran at the event (push mode waits for a notice or its timer): nothing to resume
  | { kind: 'ended' }
  | { kind: 'not-resumed'; waitedMs: number };

/** True when the delegation runs an activity (it is following its task) right now. */
export async function isFollowing(handle: WorkflowHandle): Promise<boolean> {
  const { raw } = await handle.describe();
  return (raw.pendingActivities ?? []).length > 0;
}

/**
 * Waits until an activity of the delegation started or heartbeated after `since` (a new attempt
 * on the replacement worker, or the running one reaching the restarted server again).
 */
export async function resumption(
  handle: WorkflowHandle,
  since: number,
  wasFollowing: boolean,
  timeoutMs = 300_000,
): Promise<Resumption> {
  if (!wasFollowing) return { kind: 'parked' };
  const deadline = since + timeoutMs;
  while (Date.now() < deadline) {
    const described = await handle.describe().catch(() => undefined); // the server may be down
    if (described && described.status.name !== 'RUNNING') return { kind: 'ended' };
    for (const activity of described?.raw.pendingActivities ?? []) {
      const started = activity.lastStartedTime ? tsToMs(activity.lastStartedTime) : 0;
      const beat = activity.lastHeartbeatTime ? tsToMs(activity.lastHeartbeatTime) : 0;
      const evidence = started > since ? started : beat > since ? beat : undefined;
      if (evidence !== undefined) return { kind: 'resumed', afterMs: evidence - since };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { kind: 'not-resumed', waitedMs: timeoutMs };
}

export interface StatusShrink {
  label: string;
  at: number;
  before: number;
  after: number;
}

/**
 * Reads `status` of every delegation every `intervalMs` (as `a2a-temporal status` does) and
 * records each time one shows fewer characters of artifact text than it showed before. Reads
 * that fail (the server restarting) are skipped.
 */
export function watchStatus(
  context: CliContext,
  delegations: Array<{ label: string; workflowId: string }>,
  intervalMs = 5_000,
): { shrinks: StatusShrink[]; samples(): number; stop(): void } {
  const shrinks: StatusShrink[] = [];
  const most = new Map<string, number>();
  let samples = 0;
  const timer = setInterval(() => {
    for (const { label, workflowId } of delegations) {
      void readStatus(context, workflowId).then(
        (view) => {
          samples += 1;
          const text = view.delegations.flatMap((d) => d.artifacts).reduce((n, a) => n + a.text.length, 0);
          const before = most.get(label) ?? 0;
          if (text < before) shrinks.push({ label, at: Date.now(), before, after: text });
          most.set(label, Math.max(before, text));
        },
        () => undefined,
      );
    }
  }, intervalMs);
  return { shrinks, samples: () => samples, stop: () => clearInterval(timer) };
}
