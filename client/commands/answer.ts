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
    .option(
      '--question <questionId>',
      'the question you answer (q1, q2, …; default: the one waiting when the command starts)',
    )
    .option('--by <name>', 'who answers, shown in traces (default: your user name)')
    .option('--json', 'print the receipt as JSON')
    .action(
      async (id: string, words: string[], opts: GlobalOptions & { task?: string; question?: string; by?: string }) => {
        const text = words.join(' ').trim();
        if (!text) throw usageError('Give the answer text: a2a-temporal answer <id> "<text>".');
        await withContext(opts, async (context) => {
          const target = await findTarget(context, id);
          if (!target.running) throw endedError(target, 'nothing was sent');
          // The answer names the question it answers: the one chosen with --question, else the one
          // waiting now. If that question is answered meanwhile (by a second `answer`, say), the
          // workflow refuses this one instead of taking it as the answer to the agent's next
          // question; an answer bound to a question asked moments ago that repeats the previous
          // answer is refused as a late duplicate (unless --question chose it).
          const waiting: PendingQuestion[] =
            target.kind === 'release'
              ? (await target.handle.query(releaseStatusQuery)).questions
              : [(await target.handle.query(delegationStatusQuery)).question].flatMap((q) => (q ? [q] : []));
          const candidates = waiting.filter(
            (q) => (!opts.task || q.taskId === opts.task) && (!opts.question || q.id === opts.question),
          );
          const bound = candidates.length === 1 ? candidates[0] : undefined;
          const questionId = opts.question ?? bound?.id;
          const answer = {
            text,
            taskId: opts.task ?? bound?.taskId,
            questionId,
            ...(questionId !== undefined && !opts.question ? { boundToPending: true } : {}),
            by: opts.by ?? defaultApprover(),
          };
          let receipt: { questionId?: string };
          let to: string;
          if (target.kind === 'release') {
            const r = await updateOrExplain(target.handle, releaseAnswerUpdate, answer);
            [receipt, to] = [r, `${r.label} (task ${r.taskId})`];
          } else {
            const r = await updateOrExplain(target.handle, answerUpdate, answer);
            [receipt, to] = [r, `task ${r.taskId} (answer ${r.round})`];
          }
          if (opts.json) return console.log(terminalJson(receipt));
          const answered = waiting.find((q) => q.id === receipt.questionId) ?? bound;
          const question = answered
            ? `question ${answered.id ?? '?'} ("${answered.text}")`
            : 'the question that waited';
          console.log(terminalSafe(`Answered ${question}: sent to ${to}. Follow it: a2a-temporal watch ${id}`));
        });
      },
    );
}
