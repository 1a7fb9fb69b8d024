/**
 * The release report, built from what the delegations returned: per dependency its risk and
 * suggestion (from the agent's sorted follow-up), per check its outcome. Pure: no Temporal.
 */
import type { Artifact, Part } from '../../a2a/index.js';
import { artifactRefOf, fileLink, sizeText } from '../../contract/artifact-ref.js';
import type { DelegateResult } from '../../contract/delegation-types.js';
import type { CheckOutcome, Finding, ReleaseInput, ReleaseReport, ReportFile } from '../../contract/release-types.js';
import { markdownInline as md } from '../markdown-text.js';

/** How one delegation of the release ended: its result, or the failure's type and message. */
export interface DelegationOutcome {
  label: string;
  agent: string;
  workflowId: string;
  result?: DelegateResult;
  failure?: { type?: string; message: string };
}

const RISK_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };
const SUMMARY_LIMIT = 600;

export function buildReleaseReport(
  input: Pick<ReleaseInput, 'service' | 'fromVersion' | 'toVersion'>,
  analysis: DelegationOutcome,
  sorted: DelegationOutcome | undefined,
  checks: DelegationOutcome[],
): ReleaseReport {
  const analysed = analysis.result ? findingsOf(analysis.result) : undefined;
  const sortedByAgent = sorted?.result ? findingsOf(sorted.result) : undefined;
  const dependencies = sortedByAgent?.findings ?? sortByRisk(analysed?.findings ?? []);
  const report: Omit<ReleaseReport, 'markdown'> = {
    service: input.service,
    fromVersion: input.fromVersion,
    toVersion: input.toVersion,
    targetNode: analysed?.targetNode,
    dependencies,
    sortedByAgent: sortedByAgent !== undefined,
    analysis: outcomeOf(analysis),
    checks: checks.map(outcomeOf),
    files: [analysis, ...(sorted ? [sorted] : []), ...checks].flatMap(filesOf),
  };
  return { ...report, markdown: markdownOf(report) };
}

/** The findings of a compatibility result: the first data part with a `findings` array. */
export function findingsOf(result: DelegateResult): { findings: Finding[]; targetNode?: number } | undefined {
  for (const part of result.artifacts.flatMap((a) => a.parts)) {
    const data = dataOf(part);
    if (data && Array.isArray(data.findings)) {
      const findings = data.findings.filter(isFinding);
      return { findings, targetNode: typeof data.targetNode === 'number' ? data.targetNode : undefined };
    }
  }
  return undefined;
}

/** The stored files of a delegation's result (only references we wrote: an agent cannot forge one). */
function filesOf(d: DelegationOutcome): ReportFile[] {
  return (d.result?.artifacts ?? []).flatMap((a) =>
    a.parts.flatMap((part) => {
      const ref = artifactRefOf(part);
      return ref ? [{ label: d.label, workflowId: d.workflowId, ref }] : [];
    }),
  );
}

function sortByRisk(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => (RISK_ORDER[a.risk] ?? 3) - (RISK_ORDER[b.risk] ?? 3) || a.name.localeCompare(b.name),
  );
}

function outcomeOf(d: DelegationOutcome): CheckOutcome {
  const base = { label: d.label, agent: d.agent, workflowId: d.workflowId };
  if (d.result) {
    // The agent's own closing words first ("Checked 15 packages: 2 findings."), else its result text.
    const said = textOf(
      d.result.kind === 'message' ? (d.result.message?.parts ?? []) : (d.result.task?.status.message?.parts ?? []),
    );
    const text = said.trim() || d.result.artifacts.map(artifactText).join('\n\n').trim();
    return {
      ...base,
      outcome: d.result.kind === 'message' ? 'answered' : 'completed',
      summary: shorten(text || 'completed without a text result'),
    };
  }
  const type = d.failure?.type;
  const outcome =
    type === 'A2A_TASK_REJECTED'
      ? 'rejected'
      : type === 'A2A_TASK_CANCELED' || type === 'CANCELED'
        ? 'canceled'
        : 'failed';
  return { ...base, outcome, summary: d.failure?.message ?? 'it ended without a result' };
}

function markdownOf(r: Omit<ReleaseReport, 'markdown'>): string {
  const lines = [`# Release report: ${md(r.service)} ${md(r.fromVersion)} → ${md(r.toVersion)}`, ''];
  lines.push(
    r.targetNode ? `Target runtime: **Node.js ${r.targetNode}**. ` : '',
    `Dependency analysis by **${md(r.analysis.agent)}**: ${r.analysis.outcome}.`,
    '',
    `## Dependencies, highest risk first${r.sortedByAgent ? '' : ' (sorted here: the agent did not sort them)'}`,
    '',
  );
  if (r.dependencies.length === 0) {
    lines.push(
      r.analysis.outcome === 'completed' ? 'No risky dependency found.' : `No findings: ${md(r.analysis.summary)}`,
    );
  } else {
    lines.push('| Package | Current | Suggested | Risk | Why |', '| --- | --- | --- | --- | --- |');
    for (const f of r.dependencies)
      lines.push(
        `| ${cell(f.name)} | ${cell(f.current)} | ${cell(f.suggested)} | ${cell(f.risk)} | ${cell(f.reason)} |`,
      );
  }
  lines.push('', '## Checks', '', '| Check | Agent | Outcome | Summary |', '| --- | --- | --- | --- |');
  for (const c of r.checks)
    lines.push(`| ${cell(c.label)} | ${cell(c.agent)} | ${c.outcome} | ${cell(firstLine(c.summary))} |`);
  if (r.files.length) {
    lines.push('', '## Files', '', '| File | From | Type | Size | SHA-256 |', '| --- | --- | --- | --- | --- |');
    for (const f of r.files)
      lines.push(
        `| [${cell(f.ref.name)}](${fileLink(f.ref)}) | ${cell(f.label)} | ${cell(f.ref.mediaType)} | ${sizeText(f.ref.size)} | \`${f.ref.sha256.slice(0, 12)}\` |`,
      );
    lines.push('', 'Save them with `a2a-temporal artifacts <release id> --save DIR`.');
  }
  return lines.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n') + '\n';
}

function dataOf(part: Part): Record<string, unknown> | undefined {
  const data = (part as { data?: unknown }).data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

function isFinding(value: unknown): value is Finding {
  const f = value as Partial<Finding> | null;
  return !!f && typeof f === 'object' && typeof f.name === 'string' && typeof f.risk === 'string';
}

function artifactText(artifact: Artifact): string {
  return textOf(artifact.parts);
}

function textOf(parts: Part[]): string {
  return parts
    .map((p) => (typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .join('');
}

function shorten(text: string): string {
  return text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT - 1)}…` : text;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() && !l.startsWith('#'))
      ?.trim() ?? text
  );
}

/** A table cell: one line, agent text escaped (`|` included). */
function cell(value: string | undefined): string {
  return md(value ?? '—');
}
