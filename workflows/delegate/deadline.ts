/**
 * The delegation's deadline (`DelegateInput.deadline`), the one limit besides `inputTimeout`
 * that a user sets: past it the work in progress is cancelled, the remote task is canceled, and
 * the delegation fails with `A2A_DEADLINE_EXCEEDED`. The instant travels across continue-as-new.
 */
import { ApplicationFailure, CancellationScope } from '@temporalio/workflow';
import type { DelegationState } from './delegation-state.js';
import type { DelegateInput } from '../../contract/delegation-types.js';
import { FailureType } from '../../contract/failure-types.js';
import type { Carry } from './carry.js';
import type { TrackingSettings } from './tracking-settings.js';

export class Deadline {
  /** Epoch ms (workflow time) when the deadline passes; undefined without one. */
  private readonly at: number | undefined;

  constructor(
    private readonly input: DelegateInput,
    settings: TrackingSettings,
  ) {
    this.at =
      input.resume?.deadlineAt ?? (settings.deadlineMs === undefined ? undefined : Date.now() + settings.deadlineMs);
  }

  /** Runs `work`, cancelled when the deadline passes. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.at === undefined ? work() : CancellationScope.withTimeout(Math.max(0, this.at - Date.now()), work);
  }

  /** True once the deadline has passed: a cancellation came from it, not from the workflow's caller. */
  get passed(): boolean {
    return this.at !== undefined && Date.now() >= this.at;
  }

  carried(): Carry<'deadlineAt'> {
    return { deadlineAt: this.at };
  }

  /**
   * The failure of a delegation the deadline ended: where the task was when it passed (`taskId`,
   * also when only a turn cut short had seen it; `taskState`, the last state seen before
   * our cancel), and whether the agent took the cancel.
   */
  failure(
    state: DelegationState,
    { taskId, taskState, canceled }: { taskId?: string; taskState?: string; canceled: boolean },
  ): ApplicationFailure {
    const { agent } = state.status;
    const where = taskId ? `task ${taskId} (last seen ${taskState ?? 'submitted'})` : 'its task';
    const cancel = !taskId ? '' : canceled ? '; the remote task was canceled' : '; canceling the remote task failed';
    return ApplicationFailure.create({
      type: FailureType.deadlineExceeded,
      nonRetryable: true,
      message: `Agent "${agent}" did not finish ${where} within the delegation's deadline of ${String(this.input.deadline)}${cancel}. Raise the deadline, or ask the agent for less.`,
      details: [
        { taskId, state: taskState, ...(state.status.remoteCancel ? { remoteCancel: state.status.remoteCancel } : {}) },
      ],
    });
  }
}
