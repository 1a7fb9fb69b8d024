/**
 * The state of one delegation and the transitions it goes through, without Temporal: the
 * workflow holds one instance, its handlers and modes call the transitions, unit tests drive it
 * directly. Every change of phase is announced to `onChange`, which publishes it (search
 * attributes, UI details, the parent's notice).
 */
import type { Part, Task, TaskState } from '../../a2a/index.js';
import type { TrackOutcome, TrackProgress } from '../../activities/index.js';
import { agentLabel } from '../../contract/telemetry.js';
import type {
  AnswerInput,
  AnswerReceipt,
  DelegateInput,
  DelegationPhase,
  DelegationStatus,
  PendingQuestion,
  ResumeState,
  StatusKey,
} from '../../contract/delegation-types.js';
import type { Carry } from './carry.js';
import { lateDuplicateOf, type PreviousAnswer } from '../late-duplicate.js';

interface AcceptedAnswer {
  answer: AnswerInput;
  receipt: AnswerReceipt;
}

export class DelegationState {
  readonly status: DelegationStatus;
  /** The task being followed (known before `status.taskId` shows it when a run resumes an old one). */
  taskId: string | undefined;
  /** The interrupted status already answered: seeing it again is not a new question. */
  handled: StatusKey | undefined;
  /** Questions asked so far (ids `q1`, `q2`, …). */
  private asked: number;
  /** The last round ended while the agent did not answer, since then (epoch ms): the next round goes on counting. */
  unreachableSince: number | undefined;
  /** Bytes the agent made this delegation drop so far (the byte budget's count): every round goes on counting. */
  droppedBytes: number;
  /** Answers by answer id: a repeated delivery returns the first receipt and changes nothing. */
  private readonly accepted = new Map<string, AnswerReceipt>();
  private pending: AcceptedAnswer | undefined;
  /** The answer the previous question got (its id and text), to recognise a late duplicate of it. */
  private previous: PreviousAnswer | undefined;

  constructor(
    input: Pick<DelegateInput, 'agent' | 'label'>,
    contextId: string,
    private readonly onChange: (status: DelegationStatus) => void = () => {},
    resume?: ResumeState,
  ) {
    this.status = {
      kind: 'delegation',
      agent: agentLabel(input.agent), // a URL without user info or query: it becomes a search attribute
      label: input.label,
      // A run that continued while its question waited goes on waiting for the answer.
      phase: resume?.question ? 'waiting-for-input' : 'resolving',
      contextId,
      ...(resume ? { taskId: resume.taskId } : {}),
      ...(resume?.question ? { question: resume.question } : {}),
      rounds: resume?.rounds ?? 0,
      artifacts: [],
    };
    this.taskId = resume?.taskId;
    this.handled = resume?.handled;
    this.asked = resume?.asked ?? 0;
    this.unreachableSince = resume?.unreachableSince;
    this.droppedBytes = resume?.droppedBytes ?? 0;
  }

  /** What the next run needs to go on with this delegation (continue-as-new; never with an answer pending). */
  carried(): Carry<
    'taskId' | 'contextId' | 'rounds' | 'asked' | 'handled' | 'question' | 'unreachableSince' | 'droppedBytes'
  > {
    return {
      taskId: this.taskId!,
      contextId: this.status.contextId,
      rounds: this.status.rounds,
      asked: this.asked,
      handled: this.handled,
      question: this.status.question,
      unreachableSince: this.unreachableSince,
      droppedBytes: this.droppedBytes || undefined,
    };
  }

  /** Publishes the status as it is (e.g. after a tracking round changed what it shows). */
  announce(): void {
    this.onChange(this.status);
  }

  sending(): void {
    this.setPhase('sending');
  }

  working(): void {
    this.setPhase('working');
  }

  /** The agent created (or continued) a task for our message. */
  adopt(task: Task): void {
    this.taskId = task.id;
    this.status.taskId = task.id;
    this.status.contextId = task.contextId ?? this.status.contextId;
  }

  /** The tracking mode chosen for this agent (after resolve), and the binding it is reached by. */
  trackBy(mode: DelegationStatus['mode'], binding?: DelegationStatus['binding']): void {
    this.status.mode = mode;
    if (binding) this.status.binding = binding;
  }

  observeState(state: TaskState): void {
    this.status.state = state;
  }

  /**
   * Where the task stands after a tracking round or a read. Artifacts received so far stay
   * visible: an outcome without any (a running read in push mode) does not clear them.
   */
  observe(outcome: TrackOutcome): void {
    this.unreachableSince = outcome.unreachableSince;
    const { silence } = outcome;
    const iso = (ms: number) => new Date(ms).toISOString();
    this.status.unreachable =
      outcome.unreachableSince !== undefined && silence
        ? { since: iso(outcome.unreachableSince), lastError: silence.lastError, givesUpAt: iso(silence.givesUpAt) }
        : undefined;
    // A read that holds nothing dropped (push mode's GetTask counts afresh) does not undo the count.
    this.droppedBytes = Math.max(this.droppedBytes, outcome.droppedBytes ?? 0);
    this.status.state = outcome.task.status.state;
    if (outcome.phase !== 'running' || outcome.artifacts.length > 0) this.status.artifacts = outcome.artifacts;
  }

  /**
   * What an activity had received when it failed or was cancelled (its heartbeat progress): the
   * chunks stay visible in the status, as the text received (at most the last 16 KB of each).
   */
  keepProgress(progress: TrackProgress | undefined): void {
    if (!progress?.artifacts?.length) return;
    const known = new Set(this.status.artifacts.map((a) => a.artifactId));
    const received = progress.artifacts
      .filter((a) => a.text && !known.has(a.artifactId))
      .map((a) => ({
        artifactId: a.artifactId,
        ...(a.name ? { name: a.name } : {}),
        parts: [{ text: a.text } as Part],
      }));
    this.status.artifacts = [...this.status.artifacts, ...received];
  }

  /** Publishes the agent's question; answers are accepted until one is taken. */
  ask(outcome: Pick<TrackOutcome, 'phase' | 'status' | 'statusText'>, askedAt: string): PendingQuestion {
    this.handled = outcome.status;
    this.asked += 1;
    const question: PendingQuestion = {
      id: `q${this.asked}`,
      taskId: this.taskId ?? '',
      state: outcome.phase === 'auth-required' ? 'TASK_STATE_AUTH_REQUIRED' : 'TASK_STATE_INPUT_REQUIRED',
      text: outcome.statusText || '(the agent asked for input without saying what it needs)',
      messageId: outcome.status.messageId,
      askedAt,
    };
    this.status.question = question;
    this.pending = undefined;
    this.setPhase('waiting-for-input');
    return question;
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
    const asked = answer.questionId;
    if (asked !== undefined && question?.id === asked && this.pending) {
      return `Question ${asked} of ${this.describe().toLowerCase()} was already answered; nothing was sent.`;
    }
    if (asked !== undefined && question?.id !== asked) {
      const now = question ? `question ${question.id} waits now` : this.activity();
      return `Question ${asked} of ${this.describe().toLowerCase()} no longer waits for an answer (${now}); nothing was sent. Read the status and answer the question that waits.`;
    }
    if (!question || this.pending) {
      return `${this.describe()} is not waiting for input (${this.activity()}); nothing was sent. Check its status and answer when the agent asks.`;
    }
    if (answer.taskId && answer.taskId !== question.taskId) {
      return `Task ${answer.taskId} is not the one waiting for input (task ${question.taskId} is); nothing was sent.`;
    }
    return lateDuplicateOf(answer, question, this.previous, this.describe().toLowerCase(), Date.now());
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
    const receipt: AnswerReceipt = {
      taskId: question.taskId,
      ...(question.id ? { questionId: question.id } : {}),
      round: this.status.rounds + 1,
      answerId,
      messageId,
    };
    this.accepted.set(answerId, receipt);
    // Not announced: the status shows the question until the workflow takes the answer and sends it.
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
    if (taken.receipt.questionId)
      this.previous = { questionId: taken.receipt.questionId, text: taken.answer.text.trim() };
    this.status.rounds = taken.receipt.round;
    this.status.phase = 'sending'; // announced by the send that follows
    this.status.question = undefined;
    return taken;
  }

  completed(): void {
    this.status.unreachable = undefined;
    this.setPhase('completed');
  }

  canceling(): void {
    this.setPhase('canceling');
  }

  canceled(): void {
    this.status.unreachable = undefined;
    this.setPhase('canceled');
  }

  /** What became of our CancelTask (see `DelegationStatus.remoteCancel`); shown with the next change of phase. */
  remoteCanceled(outcome: string): void {
    this.status.remoteCancel = outcome;
  }

  failed(message: string): void {
    this.status.phase = 'failed';
    this.status.unreachable = undefined;
    this.status.question = undefined;
    this.status.error = message;
    this.onChange(this.status);
  }

  private setPhase(phase: DelegationPhase): void {
    this.status.phase = phase;
    if (phase !== 'waiting-for-input') this.status.question = undefined;
    this.onChange(this.status);
  }

  /** What the delegation is doing, for messages. */
  private activity(): string {
    const { phase, taskId } = this.status;
    switch (phase) {
      case 'resolving':
      case 'sending':
        if (this.pending) return 'it is sending the answer it already got';
        return this.status.rounds > 0 ? 'it is sending an answer' : 'it is still sending its request';
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
