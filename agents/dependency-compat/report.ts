import type { Part, Task } from '@a2a-js/sdk';
import { dataPart, isObject, textPart } from '../shared/parts.js';
import { countByRisk, RISKS, type Finding, type Risk } from './analysis.js';
import type { Manifest } from '../shared/manifest.js';

export const REPORT_ARTIFACT_ID = 'compatibility-report';
export const REPORT_ARTIFACT_NAME = 'Compatibility report';
export const SORTED_ARTIFACT_ID = 'sorted-fix-suggestions';
export const SORTED_ARTIFACT_NAME = 'Fix suggestions by risk';

const MARKDOWN = 'text/markdown';

export interface ReportInput {
  manifest: Manifest;
  targetNode: number;
  findings: readonly Finding[];
  /** Mentioned in the summary when the conversation established it. */
  packageManager?: string;
}

/** The compatibility report as three chunks: title, findings table, summary plus the JSON findings. */
export function reportChunks({ manifest, targetNode, findings, packageManager }: ReportInput): Part[][] {
  const runtime = Object.keys(manifest.dependencies).length;
  const development = Object.keys(manifest.devDependencies ?? {}).length;
  const title = [manifest.name ?? 'the service', manifest.version].filter(Boolean).join(' ');
  const heading =
    `# Compatibility report: ${title} on Node.js ${targetNode}\n\n` +
    `Checked ${runtime + development} dependencies (${runtime} runtime, ${development} development)` +
    `${manifest.engines?.node ? ' and the engines field' : ''} against Node.js ${targetNode}.\n\n`;

  const table =
    findings.length === 0
      ? `## Findings\n\nNo dependency needs attention for Node.js ${targetNode}.\n\n`
      : '## Findings\n\n| Package | Current | Suggested | Risk | Reason |\n| --- | --- | --- | --- | --- |\n' +
        findings
          .map(
            (f) => `| ${cell(f.name)} | ${cell(f.current)} | ${cell(f.suggested)} | ${f.risk} | ${cell(f.reason)} |\n`,
          )
          .join('') +
        '\n';

  const counts = countByRisk(findings);
  const lines = RISKS.map((risk) => `- ${label(risk)} risk: ${counts[risk]}${namesOf(findings, risk)}`);
  if (packageManager) lines.push(`- Package manager: ${packageManager}`);
  const summary =
    `## Summary\n\n${lines.join('\n')}\n\n` +
    (findings.length === 0
      ? `${title} can move to Node.js ${targetNode} without dependency changes.\n`
      : 'Fix the high-risk packages before switching the runtime; upgrade or rebuild the medium-risk ones ' +
        'in the same change; the low-risk ones can follow.\n');

  return [
    [textPart(heading, MARKDOWN)],
    [textPart(table, MARKDOWN)],
    [textPart(summary, MARKDOWN), dataPart({ targetNode, findings })],
  ];
}

/** The referenced report's findings, already sorted, as markdown plus `{ findings }`. */
export function sortedSuggestionParts(sorted: readonly Finding[], targetNode: number | undefined): Part[] {
  const heading = `# Fix suggestions by risk${targetNode === undefined ? '' : ` (Node.js ${targetNode})`}\n\n`;
  const body =
    sorted.length === 0
      ? 'The referenced report has no findings: nothing to fix.\n'
      : sorted
          .map((f, i) => `${i + 1}. **${f.name}** (${f.risk}): ${f.current} → ${f.suggested}. ${f.reason}\n`)
          .join('');
  return [textPart(heading + body, MARKDOWN), dataPart({ findings: sorted })];
}

/** Reads the findings back from a task's `compatibility-report` artifact; undefined when it has none. */
export function findingsFromTask(task: Task): { targetNode: number | undefined; findings: Finding[] } | undefined {
  const report = task.artifacts.find((artifact) => artifact.artifactId === REPORT_ARTIFACT_ID);
  for (const part of report?.parts ?? []) {
    const data: unknown = part.content?.$case === 'data' ? part.content.value : undefined;
    if (isObject(data) && Array.isArray(data.findings) && data.findings.every(isFinding)) {
      return { targetNode: typeof data.targetNode === 'number' ? data.targetNode : undefined, findings: data.findings };
    }
  }
  return undefined;
}

function isFinding(value: unknown): value is Finding {
  return (
    isObject(value) &&
    typeof value.name === 'string' &&
    typeof value.current === 'string' &&
    typeof value.suggested === 'string' &&
    typeof value.reason === 'string' &&
    RISKS.some((risk) => risk === value.risk)
  );
}

function namesOf(findings: readonly Finding[], risk: Risk): string {
  const names = findings.filter((f) => f.risk === risk).map((f) => f.name);
  return names.length === 0 ? '' : ` (${names.join(', ')})`;
}

function label(risk: Risk): string {
  return risk.charAt(0).toUpperCase() + risk.slice(1);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
