import type { Command } from 'commander';
import {
  answerUpdate,
  delegationStatusQuery,
  releaseAnswerUpdate,
  releaseStatusQuery,
  type PendingQuestion,
} from '../../contract/index.js';
import { usageError } from '../cli-error.js';
import { defaultApprover } from '../interactive.js';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { terminalJson, terminalSafe } from '../terminal-text.js';
import { updateOrExplain } from '../update-errors.js';
import { endedError, findTarget } from '../workflow-target.js';

export function registerAnswerCommand(program: Command): void {
  withConnectionOptions(program.command('answer <id> <text...>'))
    .description(
      'answer the question an agent asked, for a release (routed to the delegation that waits) or a single delegation',
    )
    .option('--task <taskId>', 'the task whose question you answer (needed when several wait)')
    .option('--by <name>', 'who answers, shown in traces (default: your user name)')
    .option('--json', 'print the receipt as JSON')
    .action(async (id: string, words: string[], opts: GlobalOptions & { task?: string; by?: string }) => {
      const text = words.join(' ').trim();
      if (!text) throw usageError('Give the answer text: a2a-temporal answer <id> "<text>".');
      await withContext(opts, async (context) => {
        const target = await findTarget(context, id);
        if (!target.running) throw endedError(target, 'nothing was sent');
        // The answer names the question it answers, as the status shows it now: if that question
        // is answered meanwhile (by a second `answer`, say), the workflow refuses this one instead
        // of taking it as the answer to the agent's next question.
        const waiting: PendingQuestion[] =
          target.kind === 'release'
            ? (await target.handle.query(releaseStatusQuery)).questions
            : [(await target.handle.query(delegationStatusQuery)).question].flatMap((q) => (q ? [q] : []));
        const question = waiting.filter((q) => !opts.task || q.taskId === opts.task);
        const questionId = question.length === 1 ? question[0]!.id : undefined;
        const answer = {
          text,
          taskId: opts.task ?? (questionId ? question[0]!.taskId : undefined),
          questionId,
          by: opts.by ?? defaultApprover(),
        };
        let receipt: object;
        let to: string;
        if (target.kind === 'release') {
          const r = await updateOrExplain(target.handle, releaseAnswerUpdate, answer);
          [receipt, to] = [r, `${r.label} (task ${r.taskId})`];
        } else {
          const r = await updateOrExplain(target.handle, answerUpdate, answer);
          [receipt, to] = [r, `task ${r.taskId} (answer ${r.round})`];
        }
        if (opts.json) return console.log(terminalJson(receipt));
        console.log(terminalSafe(`Answer sent to ${to}. Follow it: a2a-temporal watch ${id}`));
      });
    });
}
