import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { untilAborted } from './abortable-delay.js';
import { agentMessage } from './parts.js';
import type { DelayDefaults } from './scenario.js';
import { TaskTurn } from './task-turn.js';

/** The agent-specific part of a sample agent: called after the shared scenarios were handled. */
export type Skill = (turn: TaskTurn) => Promise<void>;

export const SIMULATED_FAILURE = 'Simulated failure: the analysis backend is unavailable.';
export const SIMULATED_REJECTION =
  'Rejected: this agent declines the request (scenario "reject"); send it to another agent or try again later.';
export const CANCELED_TEXT = "Canceled at the client's request; no further results will be produced.";

/**
 * The executor shared by the sample agents. It handles what every sample agent does the same way
 * (the first `task` event, the `metadata.scenario` switches `fail`, `reject`, `message`,
 * `never-finish`, the TCK `messageId` prefixes, cancellation) and hands everything else to the
 * agent's {@link Skill}.
 */
export class SampleAgentExecutor implements AgentExecutor {
  /** Turns in progress, by task id; aborted on cancel and on dispose. */
  private readonly running = new Map<string, AbortController>();
  /** taskId → contextId for every non-terminal task: `cancelTask` receives no contextId. */
  private readonly contextIds = new Map<string, string>();

  constructor(
    private readonly skill: Skill,
    private readonly defaults: DelayDefaults,
  ) {}

  async execute(requestContext: RequestContext, eventBus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = requestContext;
    const controller = new AbortController();
    // A follow-up that arrives while an earlier turn of the same task still runs supersedes it.
    this.running.get(taskId)?.abort();
    this.running.set(taskId, controller);
    this.contextIds.set(taskId, contextId);
    const turn = new TaskTurn(requestContext, eventBus, this.defaults, controller.signal);
    try {
      // `ackDelayMs`: nothing is published before it passes, so the send is acknowledged late.
      if (await turn.delay(turn.settings.ackDelayMs)) await this.run(turn);
      if (!turn.settled) turn.fail('Internal error: the agent ended its turn without a result.');
    } finally {
      // A canceled or superseded turn no longer owns the task's entries.
      if (this.running.get(taskId) === controller) {
        this.running.delete(taskId);
        if (!turn.parked) this.contextIds.delete(taskId);
      }
    }
  }

  async cancelTask(taskId: string, eventBus: ExecutionEventBus): Promise<void> {
    this.running.get(taskId)?.abort();
    this.running.delete(taskId);
    const contextId = this.contextIds.get(taskId) ?? '';
    this.contextIds.delete(taskId);
    // The SDK's CancelTask waits for this CANCELED status on the bus (it does not write one itself
    // while the task's bus is alive).
    eventBus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: agentMessage({ taskId, contextId, text: CANCELED_TEXT }),
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
  }

  /** Stops every turn in progress (pending delays and chunks); used when the server shuts down. */
  dispose(): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.contextIds.clear();
  }

  private async run(turn: TaskTurn): Promise<void> {
    const { scenario } = turn.settings;
    if (scenario === 'message' || scenario === 'tck-message-response') {
      turn.reply(`Direct reply without a task (scenario "${scenario}").`);
      return;
    }
    turn.publishTask();
    switch (scenario) {
      case 'fail':
        turn.fail(SIMULATED_FAILURE);
        return;
      case 'reject':
      case 'tck-reject-task':
        turn.reject(SIMULATED_REJECTION);
        return;
      case 'never-finish':
        turn.working('Working on it; this task never finishes on its own (scenario "never-finish"): cancel it.');
        await untilAborted(turn.signal);
        return;
      case 'tck-complete-task':
        turn.working();
        turn.complete('Task completed (TCK scenario "tck-complete-task").');
        return;
      case 'tck-input-required':
        turn.working();
        if (turn.task) turn.complete('Thanks, that answers it (TCK scenario "tck-input-required").');
        else turn.ask(TaskState.TASK_STATE_INPUT_REQUIRED, 'Please provide more input to continue.', 'tck-input');
        return;
      default:
        await this.skill(turn);
    }
  }
}
