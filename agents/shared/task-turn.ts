import { AgentEvent, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import type { Message, Part, Task } from '@a2a-js/sdk';
import { delay } from './abortable-delay.js';
import { agentMessage } from './parts.js';
import { resolveTurnSettings, type DelayDefaults, type TurnSettings } from './scenario.js';

/** One artifact streamed as several `artifactUpdate` events (first replaces, the rest append). */
export interface ArtifactStream {
  artifactId: string;
  name: string;
  description?: string;
  /** The parts of each chunk, in order; must not be empty. */
  chunks: Part[][];
}

export type InterruptedState = TaskState.TASK_STATE_INPUT_REQUIRED | TaskState.TASK_STATE_AUTH_REQUIRED;

const TERMINAL_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

/**
 * One `execute` call of a sample agent, seen from the agent's side: what was asked (the whole
 * conversation of the task), and typed helpers that publish the SDK events for it. Once the turn
 * is canceled (its signal aborts) every helper becomes a no-op, so a canceled task never receives
 * events after its CANCELED status.
 */
export class TaskTurn {
  readonly taskId: string;
  readonly contextId: string;
  readonly userMessage: Message;
  /** Every message of the task so far (history plus this turn's user message), oldest first. */
  readonly conversation: readonly Message[];
  /** The stored task on a follow-up turn; undefined on the turn that creates the task. */
  readonly task: Task | undefined;
  /** Tasks named in the user message's `referenceTaskIds` that the task store knows. */
  readonly referenceTasks: readonly Task[];
  /** The scenario switches and delays that apply to this turn. */
  readonly settings: TurnSettings;
  private lastState: TaskState | undefined;
  private replied = false;

  constructor(
    requestContext: RequestContext,
    private readonly bus: ExecutionEventBus,
    defaults: DelayDefaults,
    readonly signal: AbortSignal,
  ) {
    this.taskId = requestContext.taskId;
    this.contextId = requestContext.contextId;
    this.userMessage = requestContext.userMessage;
    this.task = requestContext.task;
    this.referenceTasks = requestContext.referenceTasks ?? [];
    const history = this.task?.history ?? [];
    this.conversation = history.some((m) => m.messageId === this.userMessage.messageId)
      ? history
      : [...history, this.userMessage];
    this.settings = resolveTurnSettings(this.conversation, defaults);
  }

  /** True once the turn published a terminal or interrupted state, or was canceled. */
  get settled(): boolean {
    if (this.signal.aborted || this.replied) return true;
    return this.lastState !== undefined && this.lastState !== TaskState.TASK_STATE_WORKING;
  }

  /** True when the turn left the task waiting in INPUT_REQUIRED or AUTH_REQUIRED. */
  get parked(): boolean {
    return (
      !this.signal.aborted &&
      (this.lastState === TaskState.TASK_STATE_INPUT_REQUIRED || this.lastState === TaskState.TASK_STATE_AUTH_REQUIRED)
    );
  }

  get terminal(): boolean {
    return this.lastState !== undefined && TERMINAL_STATES.includes(this.lastState);
  }

  /** Publishes the task; the SDK requires it as the first event of every turn, follow-ups included. */
  publishTask(): void {
    const task: Task = this.task ?? {
      id: this.taskId,
      contextId: this.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [this.userMessage],
      metadata: undefined,
    };
    this.publish(AgentEvent.task(task));
  }

  working(text?: string): void {
    this.status(TaskState.TASK_STATE_WORKING, text);
  }

  /**
   * Parks the task in INPUT_REQUIRED or AUTH_REQUIRED with a question. `questionId` is stored in
   * the question's metadata (`metadata.question`) so a later turn can tell what was answered.
   */
  ask(state: InterruptedState, question: string, questionId: string): void {
    this.status(state, question, { question: questionId });
  }

  complete(text: string): void {
    this.status(TaskState.TASK_STATE_COMPLETED, text);
  }

  fail(text: string): void {
    this.status(TaskState.TASK_STATE_FAILED, text);
  }

  reject(text: string): void {
    this.status(TaskState.TASK_STATE_REJECTED, text);
  }

  /** Replies with a plain agent message instead of a task; only valid as the first event of a turn. */
  reply(text: string): void {
    this.publish(AgentEvent.message(agentMessage({ contextId: this.contextId, taskId: this.task?.id, text })));
    this.replied = true;
  }

  /** Waits unless the task is canceled first. @returns false when canceled. */
  delay(ms: number): Promise<boolean> {
    return delay(ms, this.signal);
  }

  /**
   * Streams an artifact chunk by chunk, `settings.chunkDelayMs` apart: the first chunk without
   * `append`, later ones with `append: true`, the last one with `lastChunk: true`.
   * @returns false when the task was canceled before the last chunk went out.
   */
  async streamArtifact(stream: ArtifactStream): Promise<boolean> {
    const last = stream.chunks.length - 1;
    for (const [index, parts] of stream.chunks.entries()) {
      if (index > 0 && !(await this.delay(this.settings.chunkDelayMs))) return false;
      if (this.signal.aborted) return false;
      this.publish(
        AgentEvent.artifactUpdate({
          taskId: this.taskId,
          contextId: this.contextId,
          artifact: {
            artifactId: stream.artifactId,
            name: stream.name,
            description: stream.description ?? '',
            parts,
            metadata: undefined,
            extensions: [],
          },
          append: index > 0,
          lastChunk: index === last,
          metadata: undefined,
        }),
      );
    }
    return !this.signal.aborted;
  }

  private status(state: TaskState, text?: string, metadata?: Record<string, unknown>): void {
    const message =
      text === undefined ? undefined : agentMessage({ contextId: this.contextId, taskId: this.taskId, text, metadata });
    this.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    if (!this.signal.aborted) this.lastState = state;
  }

  private publish(event: ReturnType<typeof AgentEvent.task>): void {
    if (this.signal.aborted || this.terminal) return;
    this.bus.publish(event);
  }
}
