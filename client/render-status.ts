/** The human-readable form of a status view (`status` without `--json`). */
import type { StatusView } from './status-view.js';
import type { Problem } from './tracking-progress.js';

export function renderStatus(view: StatusView): string {
  const lines: string[] = [];
  if (view.kind === 'release')
    lines.push(`Release ${view.service} ${view.fromVersion} → ${view.toVersion}  (${view.workflowId})`);
  else lines.push(`Delegation to ${view.delegations[0]?.agent ?? 'agent'}  (${view.workflowId})`);
  lines.push(`Status: ${view.status} · phase: ${view.phase}`);
  if (view.uiUrl) lines.push(`UI: ${view.uiUrl}`);

  if (view.questions.length) {
    lines.push('', 'Waiting for an answer:');
    for (const q of view.questions) {
      lines.push(`  ${q.label ?? 'agent'} (task ${q.taskId}): ${q.text.split('\n').join('\n    ')}`);
    }
    const task = view.questions.length > 1 ? ' --task <taskId>' : '';
    lines.push(`  → a2a-temporal answer ${view.workflowId} "<answer>"${task}`);
  }
  if (view.phase === 'awaiting-approval') {
    lines.push(
      '',
      `Waiting for approval → a2a-temporal approve ${view.workflowId}   or   a2a-temporal reject ${view.workflowId} --reason "<why>"`,
    );
  }
  if (view.delegations.length) {
    lines.push('', 'Delegations:');
    const rows = view.delegations.map((d) => [
      d.label ?? '-',
      d.agent,
      d.phase,
      d.binding ? `${d.binding}${d.mode ? ` · ${d.mode}` : ''}` : '-',
      d.state ?? '-',
      d.taskId ? `task ${d.taskId}` : '',
    ]);
    lines.push(...table(rows).map((r) => `  ${r}`));
    for (const d of view.delegations) {
      if (d.error) lines.push(`  ${d.label ?? d.agent}: ${d.error}`);
      if (d.problem) lines.push(`  ${d.label ?? d.agent}: ! ${problemText(d.problem)}`);
    }
  }
  const artifacts = view.delegations.flatMap((d) => d.artifacts.map((a) => ({ d, a })));
  if (artifacts.length && !view.report) {
    lines.push('', 'Artifacts so far:');
    for (const { d, a } of artifacts)
      lines.push(`  ${d.label ?? d.agent} · ${a.name ?? a.artifactId} (${a.parts} parts, ${a.text.length} characters)`);
  }
  if (view.report) lines.push('', view.report.markdown.trimEnd());
  if (view.decision)
    lines.push(
      '',
      `${capitalise(view.decision.outcome)} by ${view.decision.by}${view.decision.reason ? `: ${view.decision.reason}` : ''}`,
    );
  else if (view.outcome && view.reason) lines.push('', `${capitalise(view.outcome)}: ${view.reason}`);
  if (view.error) lines.push('', `Failed: ${view.error}`);
  return lines.join('\n');
}

/**
 * One line: "agent unreachable since 14:02:11 (7 attempts, last: connection refused …), next try
 * in 8 s; gives up at 14:04:11" (times of day in UTC, as the JSON's are).
 */
export function problemText(problem: Problem, now = Date.now()): string {
  const time = (iso: string) => `${iso.slice(11, 19)}Z`;
  const what = problem.kind === 'agent-unreachable' ? 'agent unreachable' : `${problem.activity} failing`;
  const tries = `${problem.attempts} attempt${problem.attempts === 1 ? '' : 's'}`;
  let line = `${what} since ${time(problem.since)} (${tries}, last: ${problem.lastError})`;
  if (problem.nextAttemptAt) {
    const inS = Math.max(0, Math.round((Date.parse(problem.nextAttemptAt) - now) / 1000));
    line += `, next try in ${inS} s`;
  }
  if (problem.givesUpAt) line += `; gives up at ${time(problem.givesUpAt)}`;
  return line;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => r[i]!.length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
