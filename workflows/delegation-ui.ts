/**
 * What a delegation shows outside itself: search attributes (so the UI's list can be filtered
 * to "waiting for input") and the current details (markdown in the UI's workflow page).
 */
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { DelegationStatus } from './delegation-types.js';
import { A2A_AGENT, A2A_TASK_ID, A2A_TASK_STATE } from './search-attributes.js';

/** Publishes `status`; search attributes are upserted only when they changed (each upsert is a history event). */
export class DelegationPublisher {
  private shown: { agent?: string; taskId?: string; state?: string } = {};

  publish(status: DelegationStatus): void {
    const state = status.phase === 'waiting-for-input' ? status.question?.state : status.state;
    const next = { agent: status.agent, taskId: status.taskId, state };
    const updates = [
      next.agent !== this.shown.agent && next.agent ? { key: A2A_AGENT, value: next.agent } : undefined,
      next.taskId !== this.shown.taskId && next.taskId ? { key: A2A_TASK_ID, value: next.taskId } : undefined,
      next.state !== this.shown.state && next.state ? { key: A2A_TASK_STATE, value: next.state } : undefined,
    ].filter((u) => u !== undefined);
    if (updates.length) {
      upsertSearchAttributes(updates);
      this.shown = next;
    }
    setCurrentDetails(delegationDetails(status, workflowInfo().workflowId));
  }
}

/** The markdown the Temporal UI shows as the delegation's current details. */
export function delegationDetails(status: DelegationStatus, workflowId: string): string {
  const lines = [
    `**Delegation to ${status.label ? `${status.label} (${status.agent})` : status.agent}**${status.mode ? ` · ${status.mode} mode` : ''}`,
    '',
    `Phase: **${status.phase}**${status.taskId ? ` · task \`${status.taskId}\`` : ''}${status.state ? ` · ${status.state}` : ''}`,
  ];
  if (status.rounds) lines.push(`Answers given: ${status.rounds}`);
  if (status.question) {
    lines.push(
      '',
      `### The agent needs ${status.question.state === 'TASK_STATE_AUTH_REQUIRED' ? 'authorization' : 'input'}`,
      '',
      ...status.question.text.split('\n').map((l) => `> ${l}`),
      '',
      `Answer: \`a2a-temporal answer ${workflowId} "<your answer>"\``,
    );
  }
  if (status.error) lines.push('', `**Failed:** ${status.error}`);
  return lines.join('\n');
}
