/**
 * The state of one delegation and the rules for answers, without Temporal: the workflow holds
 * one instance, its handlers call into it, and unit tests drive it directly.
 */
import type {
  AnswerInput,
  AnswerReceipt,
  DelegateInput,
  DelegationPhase,
  DelegationStatus,
  PendingQuestion,
} from './delegation-types.js';

interface AcceptedAnswer {
  answer: AnswerInput;
  receipt: AnswerReceipt;
}

export class DelegationState {
  readonly status: DelegationStatus;
  /** Answers by answer id: a repeated delivery returns the first receipt and changes nothing. */
  private readonly accepted = new Map<string, AnswerReceipt>();
  private pending: AcceptedAnswer | undefined;

  constructor(input: Pick<DelegateInput, 'agent' | 'label'>, contextId: string) {
    this.status = {
      kind: 'delegation',
      agent: input.agent,
      label: input.label,
      phase: 'resolving',
      contextId,
      rounds: 0,
      artifacts: [],
    };
  }

  setPhase(phase: DelegationPhase): void {
    this.status.phase = phase;
    if (phase !== 'waiting-for-input') this.status.question = undefined;
  }

  /** Publishes the agent's question; answers are accepted until one is taken. */
  ask(question: PendingQuestion): void {
    this.status.question = question;
    this.status.phase = 'waiting-for-input';
    this.pending = undefined;
  }

  /**
   * Why this answer cannot be accepted now, as a sentence for the caller, or undefined when it
   * can. A repeated answer id is always acceptable: it is answered with its first receipt.
   */
  rejectionOf(answer: AnswerInput): string | undefined {
    if (answer.answerId && this.accepted.has(answer.answerId)) return undefined;
    if (typeof answer.text !== 'string' || answer.text.trim() === '') {
      return 'The answer is empty; nothing was sent. Give the text the agent asked for.';
    }
    const question = this.status.question;
    if (!question || this.pending) {
      return `${this.describe()} is not waiting for input (${this.activity()}); nothing was sent. Check its status and answer when the agent asks.`;
    }
    if (answer.taskId && answer.taskId !== question.taskId) {
      return `Task ${answer.taskId} is not the one waiting for input (task ${question.taskId} is); nothing was sent.`;
    }
    return undefined;
  }

  /**
   * Records an answer that passed {@link rejectionOf}; `messageId` is the id the answer's A2A
   * message will carry. Idempotent per answer id.
   */
  accept(answer: AnswerInput, answerId: string, messageId: string): AnswerReceipt {
    const known = this.accepted.get(answerId);
    if (known) return known;
    const question = this.status.question;
    if (!question) throw new Error(this.rejectionOf(answer) ?? 'no question is pending');
    const receipt: AnswerReceipt = { taskId: question.taskId, round: this.status.rounds + 1, answerId, messageId };
    this.accepted.set(answerId, receipt);
    this.pending = { answer: { ...answer, answerId }, receipt };
    return receipt;
  }

  /** True once an answer to the pending question was accepted. */
  get answered(): boolean {
    return this.pending !== undefined;
  }

  /** Hands the accepted answer to the workflow (once) and counts the round. */
  takeAnswer(): AcceptedAnswer {
    const taken = this.pending;
    if (!taken) throw new Error('takeAnswer() called before an answer was accepted');
    this.pending = undefined;
    this.status.rounds = taken.receipt.round;
    this.setPhase('sending');
    return taken;
  }

  /** What the delegation is doing, for messages. */
  private activity(): string {
    const { phase, taskId } = this.status;
    switch (phase) {
      case 'resolving':
      case 'sending':
        return this.pending ? 'it is sending the answer it already got' : 'it is still sending its request';
      case 'working':
      case 'waiting-for-input':
        return taskId ? `the agent is working on task ${taskId}` : 'the agent is working on its request';
      default:
        return `it has ${phase === 'canceling' ? 'been canceled' : `ended (${phase})`}`;
    }
  }

  private describe(): string {
    return `The delegation to ${this.status.label ?? this.status.agent}`;
  }
}
