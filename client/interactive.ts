/**
 * What `--follow` and the demo do when a workflow needs a person: answer questions (from a
 * flag, or asked on the terminal) and decide approvals.
 */
import { userInfo } from 'node:os';
import type { WorkflowHandle } from '@temporalio/client';
import { answerUpdate, approveUpdate, rejectUpdate, releaseAnswerUpdate } from '../contract/index.js';
import type { CliContext } from './context.js';
import type { FollowOptions } from './follow.js';
import { renderMarkdown } from './markdown-terminal.js';
import type { OutputFormat } from './output-format.js';
import { terminalJson } from './terminal-text.js';
import type { Terminal } from './terminal.js';
import { updateOrExplain } from './update-errors.js';

export interface InteractiveOptions {
  /** The answer to give to every question (non-interactive runs). */
  answer?: string;
  /** Approve automatically when the report is ready. */
  approve?: boolean;
  /** Who decides. @default the OS user */
  by?: string;
  /** Abandons a pending prompt. */
  signal?: AbortSignal;
  /** How the report is shown before the approval is asked (see {@link OutputFormat}). @default 'text' */
  format?: OutputFormat;
}

/** `onQuestion`/`onApproval` callbacks for {@link follow}. */
export function interactiveHandlers(
  context: CliContext,
  workflowId: string,
  terminal: Terminal,
  options: InteractiveOptions,
): Pick<FollowOptions, 'onQuestion' | 'onApproval'> {
  const handle: WorkflowHandle = context.client.workflow.getHandle(workflowId);
  const by = options.by ?? defaultApprover();
  return {
    async onQuestion(question, view) {
      const text =
        options.answer ?? (await terminal.prompt(`Your answer for ${question.label ?? 'the agent'}: `, options.signal));
      if (!text) {
        terminal.line(
          `  (answer it with: a2a-temporal answer ${workflowId} "<answer>"${view.questions.length > 1 ? ` --task ${question.taskId}` : ''})`,
        );
        return;
      }
      // The person answered this question's prompt: the answer names it, so it never lands on the next one.
      const answer = { text, taskId: question.taskId, ...(question.id ? { questionId: question.id } : {}), by };
      if (view.kind === 'release') await updateOrExplain(handle, releaseAnswerUpdate, answer);
      else await updateOrExplain(handle, answerUpdate, answer);
      terminal.line(`  ✓ answered: ${text}`);
    },
    async onApproval(view) {
      const report = view.report;
      if (report && options.format === 'json') terminal.line(terminalJson({ type: 'report', report }));
      else {
        terminal.line();
        if (!report) terminal.line('(no report)');
        else if (options.format === 'markdown') terminal.line(report.markdown.trimEnd());
        else terminal.rendered(renderMarkdown(report.markdown, terminal.style));
        terminal.line();
      }
      if (options.approve) {
        await updateOrExplain(handle, approveUpdate, { by, reason: 'approved with --approve' });
        terminal.line(`  ✓ approved by ${by}`);
        return;
      }
      const reply = await terminal.prompt('Approve this release? [y/N] ', options.signal);
      if (reply === undefined) {
        terminal.line(
          `  (decide with: a2a-temporal approve ${workflowId}   or   a2a-temporal reject ${workflowId} --reason "<why>")`,
        );
        return;
      }
      if (/^y(es)?$/i.test(reply)) {
        await updateOrExplain(handle, approveUpdate, { by });
        terminal.line(`  ✓ approved by ${by}`);
      } else {
        const reason = (await terminal.prompt('Why do you reject it? ', options.signal)) || 'rejected on the terminal';
        await updateOrExplain(handle, rejectUpdate, { by, reason });
        terminal.line(`  ✓ rejected by ${by}`);
      }
    },
  };
}

export function defaultApprover(): string {
  try {
    return process.env.USER || userInfo().username || 'someone';
  } catch {
    return 'someone';
  }
}
