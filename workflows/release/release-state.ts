/**
 * The release coordinator's state and rules without Temporal: which delegations run, which
 * questions wait, where an answer goes, whether a decision may be taken. The workflow holds one
 * instance; its handlers call into it; unit tests drive it directly.
 */
import type { TaskState } from '../../a2a/index.js';
import type { AnswerInput, DelegationNotice } from '../../contract/delegation-types.js';
import type {
  Decision,
  DecisionInput,
  ReleaseAnswerReceipt,
  ReleaseDelegation,
  ReleaseInput,
  ReleaseOutcome,
  ReleasePhase,
  ReleaseQuestion,
  ReleaseReport,
  ReleaseStatus,
} from '../../contract/release-types.js';
import { lateDuplicateOf, type PreviousAnswer } from '../late-duplicate.js';

export class ReleaseState {
  readonly status: ReleaseStatus;
  private readonly receipts = new Map<string, ReleaseAnswerReceipt>();
  /** The answer each delegation's previous question got (by workflow id): a late duplicate of it is refused. */
  private readonly previous = new Map<string, PreviousAnswer>();

  constructor(input: Pick<ReleaseInput, 'service' | 'fromVersion' | 'toVersion'>, releaseId: string) {
    this.status = {
      kind: 'release',
      releaseId,
      service: input.service,
      fromVersion: input.fromVersion,
      toVersion: input.toVersion,
      phase: 'analysing',
      delegations: [],
      questions: [],
    };
  }

  /** Sets the phase; while analysing or following up, pending questions show as `waiting-for-input`. */
  setPhase(phase: ReleasePhase): void {
    this.status.phase = phase;
    this.refreshQuestions();
  }

  /** The phase without the `waiting-for-input` overlay (what the release is doing underneath). */
  private basePhase: ReleasePhase = 'analysing';

  /** Registers a delegation the release started. */
  track(label: string, workflowId: string, agent: string): void {
    this.status.delegations.push({ label, workflowId, agent, phase: 'resolving' });
  }

  delegation(label: string): ReleaseDelegation | undefined {
    return this.status.delegations.find((d) => d.label === label);
  }

  /** A child's notice: its task, its question (or none any more), its end. */
  onNotice(notice: DelegationNotice): void {
    const row = this.status.delegations.find((d) => d.workflowId === notice.workflowId);
    if (!row || notice.seq <= (row.seq ?? 0)) return; // unknown, or older than what we know
    row.seq = notice.seq;
    row.phase = notice.phase;
    row.taskId = notice.taskId ?? row.taskId;
    row.contextId = notice.contextId;
    row.state = notice.state ?? row.state;
    row.question = notice.question;
    if (notice.error) row.error = notice.error;
    this.refreshQuestions();
  }

  /** Records how a delegation ended, from its result or failure. */
  ended(
    label: string,
    phase: 'completed' | 'failed' | 'canceled',
    details: { state?: TaskState; error?: string } = {},
  ): void {
    const row = this.delegation(label);
    if (!row) return;
    row.phase = phase;
    row.state = details.state ?? row.state;
    const error = details.error;
    row.question = undefined;
    if (error) row.error = error;
    this.refreshQuestions();
  }

  /**
   * Why this answer cannot be routed now, as a sentence for the caller, or undefined. A repeated
   * answer id is always fine: it gets its first receipt.
   */
  answerRejection(answer: AnswerInput): string | undefined {
    if (answer.answerId && this.receipts.has(answer.answerId)) return undefined;
    if (typeof answer.text !== 'string' || answer.text.trim() === '') {
      return 'The answer is empty; nothing was sent. Give the text the agent asked for.';
    }
    const waiting = this.status.questions;
    const release = `Release ${this.status.releaseId}`;
    if (waiting.length === 0) {
      return `${release} has no question waiting for an answer (phase: ${this.status.phase}); nothing was sent.`;
    }
    if (answer.taskId && !waiting.some((q) => q.taskId === answer.taskId)) {
      return `No delegation of ${release.toLowerCase()} waits on task ${answer.taskId} (waiting: ${describe(waiting)}); nothing was sent.`;
    }
    if (answer.questionId !== undefined) {
      const matches = waiting.filter(
        (q) => q.id === answer.questionId && (!answer.taskId || q.taskId === answer.taskId),
      );
      if (matches.length === 0) {
        return `Question ${answer.questionId} of ${release.toLowerCase()} no longer waits for an answer (waiting: ${describe(waiting)}); nothing was sent. Read the status and answer the question that waits.`;
      }
      if (matches.length === 1) return this.lateDuplicateOf(answer);
    }
    if (!answer.taskId && waiting.length > 1) {
      return `${waiting.length} delegations of ${release.toLowerCase()} wait for an answer (${describe(waiting)}); nothing was sent. Answer one of them with --task <taskId>.`;
    }
    return this.lateDuplicateOf(answer);
  }

  /** The delegations' rule (docs/answers.md), for the question this answer would go to. */
  private lateDuplicateOf(answer: AnswerInput): string | undefined {
    const question = this.route(answer);
    if (!question) return undefined;
    const whose = `the delegation to ${question.label} of release ${this.status.releaseId}`;
    return lateDuplicateOf(answer, question, this.previous.get(question.workflowId), whose, Date.now());
  }

  /** The question an accepted answer goes to (call after {@link answerRejection} said yes). */
  route(answer: AnswerInput): ReleaseQuestion | undefined {
    return this.status.questions.find(
      (q) =>
        (!answer.taskId || q.taskId === answer.taskId) &&
        (answer.questionId === undefined || q.id === answer.questionId),
    );
  }

  receiptFor(answerId: string): ReleaseAnswerReceipt | undefined {
    return this.receipts.get(answerId);
  }

  /** The answer went to the delegation: its question is no longer ours to route. */
  answered(receipt: ReleaseAnswerReceipt): void {
    this.receipts.set(receipt.answerId, receipt);
    const row = this.status.delegations.find((d) => d.workflowId === receipt.workflowId);
    if (row) row.question = undefined;
    this.refreshQuestions();
  }

  /**
   * Routes an answer that passed {@link answerRejection}: its receipt, recorded at once so that a
   * second answer cannot go to the same question, and whether it still has to be forwarded to
   * the delegation (not when the answer id was seen before: it gets its first receipt).
   */
  relay(answer: AnswerInput, answerId: string): { receipt: ReleaseAnswerReceipt; forward: boolean } {
    const known = this.receiptFor(answerId);
    if (known) return { receipt: known, forward: false };
    const question = this.route(answer)!;
    const receipt: ReleaseAnswerReceipt = {
      label: question.label,
      workflowId: question.workflowId,
      taskId: question.taskId,
      ...(question.id ? { questionId: question.id } : {}),
      answerId,
    };
    if (question.id) this.previous.set(question.workflowId, { questionId: question.id, text: answer.text.trim() });
    this.answered(receipt);
    return { receipt, forward: true };
  }

  /** The report is ready (built from the delegations' outcomes). */
  reported(report: ReleaseReport): void {
    this.status.report = report;
  }

  /** A person decided (call after {@link decisionRejection} said yes); `at`: workflow time. */
  decide(outcome: Decision['outcome'], input: DecisionInput, at: string): Decision {
    this.status.decision = { outcome, by: input.by.trim(), reason: input.reason?.trim() || undefined, at };
    return this.status.decision;
  }

  /** Nobody decided within the approval deadline: the release is rejected. */
  decisionTimedOut(approvalTimeout: string, at: string): Decision {
    this.status.decision = {
      outcome: 'rejected',
      by: 'approval deadline',
      reason: `no decision within ${approvalTimeout}`,
      at,
    };
    return this.status.decision;
  }

  /** How the release ended, and why. */
  finished(outcome: ReleaseOutcome, reason: string | undefined): void {
    this.setPhase(outcome);
    this.status.outcome = outcome;
    this.status.reason = reason;
  }

  /** Why a decision cannot be taken now, or undefined. */
  decisionRejection(outcome: Decision['outcome'], input: DecisionInput): string | undefined {
    const release = `Release ${this.status.releaseId}`;
    if (this.status.decision) {
      return `${release} was already ${this.status.decision.outcome} by ${this.status.decision.by}; nothing changed.`;
    }
    if (this.status.phase !== 'awaiting-approval') {
      return `${release} is not waiting for approval (phase: ${this.status.phase}); nothing changed. Decide once its report is ready.`;
    }
    if (!input.by || input.by.trim() === '') return 'Say who decides (--by <name>); nothing changed.';
    if (outcome === 'rejected' && (!input.reason || input.reason.trim() === '')) {
      return 'A rejection needs a reason (--reason "<why>"); nothing changed.';
    }
    return undefined;
  }

  private refreshQuestions(): void {
    if (this.status.phase !== 'waiting-for-input') this.basePhase = this.status.phase;
    this.status.questions = this.status.delegations.flatMap((d) =>
      d.question ? [{ ...d.question, label: d.label, workflowId: d.workflowId, agent: d.agent }] : [],
    );
    const asking = this.status.questions.length > 0;
    if (asking && (this.basePhase === 'analysing' || this.basePhase === 'following-up'))
      this.status.phase = 'waiting-for-input';
    else if (!asking && this.status.phase === 'waiting-for-input') this.status.phase = this.basePhase;
  }
}

function describe(questions: ReleaseQuestion[]): string {
  return questions
    .map((q) => `${q.label}: task ${q.taskId}${q.id ? ` question ${q.id}` : ''} — "${shorten(q.text)}"`)
    .join('; ');
}

function shorten(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
