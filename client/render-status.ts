/**
 * The human-readable form of a status view (`status` without `--json`). Every line starts with
 * text of ours: agent values that belong on one line (ids, names, states) have their line breaks
 * written as `\n`, agent texts of several lines (questions, errors) are indented under their heading.
 * The caller passes the result through `terminalSafe`.
 */
import { sizeText, type FileSummary } from '../contract/artifact-ref.js';
import type { StatusView } from './status-view.js';
import { indentLines, oneLine } from './terminal-text.js';

export function renderStatus(view: StatusView): string {
  const lines: string[] = [];
  if (view.kind === 'release')
    lines.push(
      `Release ${oneLine(`${view.service} ${view.fromVersion} → ${view.toVersion}`)}  (${oneLine(view.workflowId)})`,
    );
  else lines.push(`Delegation to ${oneLine(view.delegations[0]?.agent ?? 'agent')}  (${oneLine(view.workflowId)})`);
  lines.push(`Status: ${view.status} · phase: ${view.phase}`);
  if (view.uiUrl) lines.push(`UI: ${view.uiUrl}`);

  if (view.questions.length) {
    lines.push('', 'Waiting for an answer:');
    for (const q of view.questions) {
      lines.push(`  ${oneLine(q.label ?? 'agent')} (task ${oneLine(q.taskId)}): ${indentLines(q.text, '    ')}`);
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
    const rows = view.delegations.map((d) =>
      [
        d.label ?? '-',
        d.agent,
        d.phase,
        d.binding ? `${d.binding}${d.mode ? ` · ${d.mode}` : ''}` : '-',
        d.state ?? '-',
        d.taskId ? `task ${d.taskId}` : '',
      ].map(oneLine),
    );
    lines.push(...table(rows).map((r) => `  ${r}`));
    for (const d of view.delegations) {
      if (d.error) lines.push(`  ${oneLine(d.label ?? d.agent)}: ${indentLines(d.error, '    ')}`);
    }
  }
  const artifacts = view.delegations.flatMap((d) => d.artifacts.map((a) => ({ d, a })));
  if (artifacts.length && !view.report) {
    lines.push('', 'Artifacts so far:');
    for (const { d, a } of artifacts) {
      const what = a.files.length ? a.files.map(fileText).join(', ') : `${a.parts} parts, ${a.text.length} characters`;
      lines.push(`  ${oneLine(d.label ?? d.agent)} · ${oneLine(a.name ?? a.artifactId)} (${what})`);
    }
  }
  if (view.report) lines.push('', view.report.markdown.trimEnd());
  if (view.decision)
    lines.push(
      '',
      `${capitalise(view.decision.outcome)} by ${oneLine(view.decision.by)}${view.decision.reason ? `: ${indentLines(view.decision.reason, '  ')}` : ''}`,
    );
  else if (view.outcome && view.reason)
    lines.push('', `${capitalise(view.outcome)}: ${indentLines(view.reason, '  ')}`);
  if (view.error) lines.push('', `Failed: ${indentLines(view.error, '  ')}`);
  return lines.join('\n');
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

/** `CHANGELOG.md, text/markdown, 2.1 KiB` (`… so far` while it arrives): a file without its bytes. */
export function fileText(file: FileSummary): string {
  return `${oneLine(file.name)}, ${oneLine(file.mediaType)}, ${sizeText(file.size)}${file.stored ? '' : ' so far'}`;
}
