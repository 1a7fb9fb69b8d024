/**
 * The human-readable form of a status view (`status --format text|markdown`). Every line starts
 * with text of ours: agent values that belong on one line (ids, names, states) have their line
 * breaks written as `\n`, agent texts of several lines (questions, errors) are indented under their
 * heading. Scrubbed here (terminal-text.ts), then painted: the delegations are a table fitted to
 * the terminal's width, the report is rendered markdown (or its source, for `markdown`).
 */
import { isTerminalState } from '../a2a/index.js';
import { sizeText, type FileSummary } from '../contract/artifact-ref.js';
import { problemLine } from '../contract/problem-line.js';
import { fitLines, paintTerminal, renderColumns, renderMarkdown, type TerminalText } from './markdown-terminal.js';
import { terminalStyle, type OutputFormat, type TerminalStyle } from './output-format.js';
import type { StatusView } from './status-view.js';
import { indentLines, oneLine, terminalJson, terminalSafe } from './terminal-text.js';
import type { Problem } from './tracking-progress.js';

export interface StatusRendering {
  /** @default 80 columns, no colour */
  style?: TerminalStyle;
  /** `markdown`: the report as its markdown source. @default 'text' */
  format?: 'text' | 'markdown';
}

const PLAIN: TerminalStyle = { width: 80, color: false };
const STATUS_COLOURS = { COMPLETED: 'green', RUNNING: 'yellow' } as const;

/** What `status` prints for `view` on `out`: rendered for its width and colour, the report's markdown source, or JSON. */
export function statusOutput(view: StatusView, format: OutputFormat, out: NodeJS.WriteStream = process.stdout): string {
  if (format === 'json') return terminalJson(view, 2);
  // Markdown is for copying elsewhere: no colour in it.
  const style = format === 'markdown' ? { ...terminalStyle(out), color: false } : terminalStyle(out);
  return renderStatus(view, { format, style });
}

export function renderStatus(view: StatusView, { style = PLAIN, format = 'text' }: StatusRendering = {}): TerminalText {
  const lines: string[] = [];
  const heading = (text: string) => paintTerminal(text, 'bold', style);
  // Lines of ours that quote agent values: scrubbed before they meet painted text, and fitted to
  // the width with every continuation indented (no agent text can start a line of its own).
  const t = (text: string) => fitLines(terminalSafe(text), style.width);
  if (view.kind === 'release')
    lines.push(
      t(`Release ${oneLine(`${view.service} ${view.fromVersion} → ${view.toVersion}`)}  (${oneLine(view.workflowId)})`),
    );
  else lines.push(t(`Delegation to ${oneLine(view.delegations[0]?.agent ?? 'agent')}  (${oneLine(view.workflowId)})`));
  const status = paintTerminal(view.status, STATUS_COLOURS[view.status as keyof typeof STATUS_COLOURS] ?? 'red', style);
  lines.push(`Status: ${status} · phase: ${t(view.phase)}`);
  // A link stays whole on its line (a terminal opens it on click), however wide.
  if (view.uiUrl) lines.push(terminalSafe(`UI: ${view.uiUrl}`));

  if (view.questions.length) {
    lines.push('', heading('Waiting for an answer:'));
    for (const q of view.questions) {
      lines.push(t(`  ${oneLine(q.label ?? 'agent')} (task ${oneLine(q.taskId)}): ${indentLines(q.text, '    ')}`));
    }
    const task = view.questions.length > 1 ? ' --task <taskId>' : '';
    lines.push(t(`  → a2a-temporal answer ${view.workflowId} "<answer>"${task}`));
  }
  if (view.phase === 'awaiting-approval') {
    lines.push(
      '',
      t(
        `Waiting for approval → a2a-temporal approve ${view.workflowId}   or   a2a-temporal reject ${view.workflowId} --reason "<why>"`,
      ),
    );
  }
  if (view.delegations.length) {
    lines.push('', heading('Delegations:'));
    const rows = view.delegations.map((d) =>
      [
        d.label ?? '-',
        d.agent,
        phaseText(d),
        d.binding ? `${d.binding}${d.mode ? ` · ${d.mode}` : ''}` : '-',
        d.state ?? '-',
        d.taskId ? `task ${d.taskId}` : '',
      ].map(oneLine),
    );
    lines.push(...renderColumns(rows, style));
    for (const d of view.delegations) {
      if (d.error) lines.push(t(`  ${oneLine(d.label ?? d.agent)}: ${indentLines(d.error, '    ')}`));
      if (d.problem) lines.push(t(`  ${oneLine(d.label ?? d.agent)}: ! ${problemText(d.problem)}`));
    }
  }
  const artifacts = view.delegations.flatMap((d) => d.artifacts.map((a) => ({ d, a })));
  if (artifacts.length && !view.report) {
    lines.push('', heading('Artifacts so far:'));
    for (const { d, a } of artifacts) {
      const what = a.files.length ? a.files.map(fileText).join(', ') : `${a.parts} parts, ${a.text.length} characters`;
      lines.push(t(`  ${oneLine(d.label ?? d.agent)} · ${oneLine(a.name ?? a.artifactId)} (${what})`));
    }
  }
  if (view.report)
    lines.push(
      '',
      format === 'markdown' ? t(view.report.markdown.trimEnd()) : renderMarkdown(view.report.markdown, style),
    );
  if (view.decision)
    lines.push(
      '',
      t(
        `${capitalise(view.decision.outcome)} by ${oneLine(view.decision.by)}${view.decision.reason ? `: ${indentLines(view.decision.reason, '  ')}` : ''}`,
      ),
    );
  else if (view.outcome && view.reason)
    lines.push('', t(`${capitalise(view.outcome)}: ${indentLines(view.reason, '  ')}`));
  if (view.error) lines.push('', t(`Failed: ${indentLines(view.error, '  ')}`));
  return lines.join('\n') as TerminalText;
}

/**
 * The delegation's phase, except that a canceled one whose agent still reports its task at work
 * says so: the delegation ended, the remote task may not have.
 */
function phaseText(d: StatusView['delegations'][number]): string {
  if (d.phase !== 'canceled' || !d.state || isTerminalState(d.state)) return d.phase;
  return `cancel requested; the agent reported ${d.state
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-')}`;
}

/** The problem's line (see contract/problem-line.ts), "next try in" counted from `now`. */
export function problemText(problem: Problem, now = Date.now()): string {
  return problemLine(problem, now);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `CHANGELOG.md, text/markdown, 2.1 KiB` (`… so far` while it arrives): a file without its bytes. */
export function fileText(file: FileSummary): string {
  return `${oneLine(file.name)}, ${oneLine(file.mediaType)}, ${sizeText(file.size)}${file.stored ? '' : ' so far'}`;
}
