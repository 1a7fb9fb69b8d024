/**
 * What the soak prints: one row per delegation (markdown, to paste into a note), the events with
 * their cost, and every promise that was broken, one sentence each.
 */
import type { DelegateResult } from '../../contract/index.js';
import type { SoakSpec } from './delegations.js';
import type { HistorySummary } from './history.js';
import type { Resumption, StatusShrink } from './observe.js';

export interface SoakEvent {
  name: string;
  /** Epoch ms when it began (the SIGKILL, the server's stop). */
  at: number;
  /** How long the replacement took to be ready. */
  downMs: number;
  /** Longest a following delegation may take to resume. */
  boundMs: number;
  resumptions: Map<string, Resumption>;
}

export interface DelegationOutcome {
  spec: SoakSpec;
  workflowId: string;
  /** `completed`, `failed: …`, `did not end …`. */
  outcome: string;
  result?: DelegateResult;
  history?: HistorySummary;
  tasksCreated: number;
  messageIds: string[];
  /** Undefined when the delegation's report is what the agent's task holds, else why not. */
  reportMismatch?: string;
  /** From the agent ending the task to the delegation's end. */
  lagMs?: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function resumed(r: Resumption | undefined): string {
  if (!r) return '—';
  if (r.kind === 'resumed') return seconds(r.afterMs);
  if (r.kind === 'parked') return 'parked (nothing ran)';
  if (r.kind === 'ended') return 'had ended';
  return `not within ${seconds(r.waitedMs)}`;
}

/** Every promise the run broke, one sentence each; empty when all held. */
export function brokenPromises(
  outcomes: DelegationOutcome[],
  events: SoakEvent[],
  shrinks: StatusShrink[],
  startedAt: number,
): string[] {
  const broken: string[] = [];
  for (const o of outcomes) {
    const name = o.spec.label;
    if (o.outcome !== 'completed') broken.push(`${name} did not complete: ${o.outcome}.`);
    if (o.result && !o.result.taskId) broken.push(`${name} completed without a task id.`);
    if (o.result && o.result.rounds !== o.spec.answers.length)
      broken.push(`${name} reports ${o.result.rounds} answered rounds; the soak answered ${o.spec.answers.length}.`);
    if (o.tasksCreated !== 1) broken.push(`${name}: the agent created ${o.tasksCreated} tasks for one delegation.`);
    const expected = 1 + o.spec.answers.length;
    if (o.messageIds.length !== expected)
      broken.push(`${name}: the agent received ${o.messageIds.length} messages; the delegation sends ${expected}.`);
    if (new Set(o.messageIds).size !== o.messageIds.length)
      broken.push(`${name}: the agent received the same message id more than once.`);
    if (o.reportMismatch) broken.push(`${name}: ${o.reportMismatch}`);
  }
  for (const event of events) {
    for (const [name, r] of event.resumptions) {
      if (r.kind === 'not-resumed' || (r.kind === 'resumed' && r.afterMs > event.boundMs))
        broken.push(`${name} resumed ${resumed(r)} after the ${event.name}; the bound is ${seconds(event.boundMs)}.`);
    }
  }
  for (const s of shrinks) {
    broken.push(
      `${s.label}: status showed ${s.after} characters of report at +${seconds(s.at - startedAt)} after showing ${s.before}.`,
    );
  }
  return broken;
}

export function soakReport(
  outcomes: DelegationOutcome[],
  events: SoakEvent[],
  startedAt: number,
  statusSamples: number,
): string {
  const header =
    '| delegation | mode | outcome | rounds | activities scheduled (by type) | retried attempts | local activities | history events (largest run) | continue-as-new | remote tasks | messages sent | ' +
    events.map((e) => `lost to ${e.name}`).join(' | ') +
    ' | ended after the task | report |';
  const rule = header.replace(/[^|]+/g, ' --- ');
  const rows = outcomes.map((o) => {
    const h = o.history;
    const cells = [
      o.spec.label,
      o.spec.mode,
      o.outcome,
      `${o.result?.rounds ?? '?'} (answers given: ${o.spec.answers.length})`,
      h
        ? Object.entries(h.activities)
            .map(([type, n]) => `${type} ${n}`)
            .join(', ')
        : '?',
      h ? String(h.retries) : '?',
      h ? String(h.localActivities) : '?',
      h ? `${h.events} (${h.maxEventsPerRun})` : '?',
      h ? String(h.continuedAsNew) : '?',
      String(o.tasksCreated),
      `${o.messageIds.length} (1 + ${o.spec.answers.length} answers)`,
      ...events.map((e) => resumed(e.resumptions.get(o.spec.label))),
      o.lagMs === undefined ? '?' : seconds(o.lagMs),
      o.reportMismatch ? 'DIFFERS' : 'as the agent wrote it',
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const eventLines = events.map(
    (e) =>
      `- ${e.name} at +${seconds(e.at - startedAt)}: replacement ready after ${seconds(e.downMs)}; resume bound ${seconds(e.boundMs)}`,
  );
  return [header, rule, ...rows, '', ...eventLines, `- status read ${statusSamples} times during the run`].join('\n');
}
