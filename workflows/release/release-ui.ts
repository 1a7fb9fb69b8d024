/** What a release shows outside itself: search attributes for the UI's list, and current details. */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { ReleaseStatus } from '../../contract/release-types.js';
import { RELEASE_PHASE, RELEASE_SERVICE } from '../../contract/search-attributes.js';
import { markdownCode, markdownInline as md, markdownLines } from '../markdown-text.js';

export class ReleasePublisher {
  private shown: { service?: string; phase?: string } = {};

  publish(status: ReleaseStatus): void {
    const updates = [
      status.service !== this.shown.service ? { key: RELEASE_SERVICE, value: status.service } : undefined,
      status.phase !== this.shown.phase ? { key: RELEASE_PHASE, value: status.phase } : undefined,
    ].filter((u) => u !== undefined);
    if (updates.length) {
      upsertSearchAttributes(updates);
      this.shown = { service: status.service, phase: status.phase };
    }
    setCurrentDetails(releaseDetails(status));
  }
}

/** The markdown the Temporal UI shows as the release's current details (agent text escaped). */
export function releaseDetails(status: ReleaseStatus): string {
  const lines = [
    `**Release ${md(status.service)} ${md(status.fromVersion)} → ${md(status.toVersion)}** · phase **${status.phase}**`,
  ];
  if (status.questions.length) {
    lines.push('', '### Waiting for your answer', '');
    for (const q of status.questions) {
      lines.push(
        `**${md(q.label)}** asks (task ${markdownCode(q.taskId)}):`,
        '',
        ...markdownLines(q.text).map((l) => `> ${l}`),
        '',
      );
    }
    const task = status.questions.length > 1 ? ' --task <taskId>' : '';
    lines.push(`Answer: \`a2a-temporal answer ${status.releaseId} "<your answer>"${task}\``);
  }
  if (status.phase === 'awaiting-approval') {
    lines.push(
      '',
      '### Waiting for approval',
      '',
      `\`a2a-temporal approve ${status.releaseId}\` or \`a2a-temporal reject ${status.releaseId} --reason "<why>"\``,
    );
  }
  if (status.delegations.length) {
    lines.push('', '### Delegations', '');
    for (const d of status.delegations) {
      const state = d.state ? ` · ${d.state.replace('TASK_STATE_', '').toLowerCase().replace('_', '-')}` : '';
      lines.push(`- **${md(d.label)}** (agent ${markdownCode(d.agent)}): ${d.phase}${state}`);
    }
  }
  if (status.report) {
    const top = status.report.dependencies
      .slice(0, 5)
      .map((f) => `- **${md(f.risk)}** ${md(f.name)}: ${md(f.current ?? '?')} → ${md(f.suggested ?? '?')}`);
    lines.push('', '### Report', '', ...(top.length ? top : ['No risky dependency found.']));
    if (status.report.dependencies.length > top.length)
      lines.push(`- … ${status.report.dependencies.length - top.length} more (see the result)`);
  }
  if (status.decision)
    lines.push(
      '',
      `**${status.decision.outcome}** by ${md(status.decision.by)}${status.decision.reason ? `: ${md(status.decision.reason)}` : ''}`,
    );
  else if (status.reason) lines.push('', `**${status.outcome ?? status.phase}:** ${md(status.reason)}`);
  return lines.join('\n');
}
