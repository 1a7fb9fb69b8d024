/**
 * One run of a delegation and everything it holds: its state, settings, deadline, metrics,
 * activities, the tracker that follows the task, and the message in flight. `delegate` drives
 * it: `converse` (which starts it), `complete`, or `end(err)` on the way out, and `close` once,
 * whatever happened. Everything that cancels the remote task goes through `cancelRemoteTask`.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  continueAsNew,
  ContinueAsNew,
  isCancellation,
  log,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Message } from '../../a2a/index.js';
import type { TrackOutcome } from '../../activities/index.js';
import type {
  AgentRef,
  AgentTarget,
  DelegateInput,
  DelegateResult,
  ResolvedAgent,
} from '../../contract/delegation-types.js';
import { FailureType } from '../../contract/failure-types.js';
import { agentLabel } from '../../contract/telemetry.js';
import { delegationActivities, type DelegationCalls } from './activity-proxies.js';
import { waitForAnswer } from './answers.js';
import type { Carry } from './carry.js';
import { Deadline } from './deadline.js';
import { DelegationState } from './delegation-state.js';
import { DelegationPublisher } from './delegation-ui.js';
import { trackerFor, PushNotices, type AfterSend, type Tracker } from './modes/index.js';
import {
  answerMessage,
  turnTaskId,
  delegationFailure,
  failureCode,
  firstMessage,
  isQuestion,
  leavesTaskRunning,
  progressIn,
  resultOf,
  terminalFailure,
} from './outcomes.js';
import { delegationMetrics, type DelegationMetrics } from './telemetry.js';
import { trackingSettings, type TrackingSettings } from './tracking-settings.js';

export class Delegation {
  readonly settings: TrackingSettings;
  readonly state: DelegationState;
  /** Push mode's notices, raised by the `taskUpdated` handler. */
  readonly notices = new PushNotices();
  readonly acts: DelegationCalls;
  /** The agent as the summaries in the UI name it. */
  readonly name: string;
  /** A turn's (stream, poll) or push send's message while the agent has not named its task: a cancellation looks the task up by it. */
  inFlight: Message | undefined;
  private readonly deadline: Deadline;
  private readonly metrics: DelegationMetrics;
  private readonly ui: DelegationPublisher;
  private resolved: ResolvedAgent | undefined;
  private tracker: Tracker | undefined;
  /** Set once the run hands the task to its next run: nothing is given back at the agent. */
  private handedOver = false;
  /** The run failed because the agent could not be reached: nothing more is asked of it. */
  private unreachable = false;

  /** @throws ApplicationFailure `A2A_INVALID_INPUT` when a setting is invalid (nothing was sent). */
  constructor(readonly input: DelegateInput) {
    this.settings = trackingSettings(input);
    const { resume } = input;
    this.ui = new DelegationPublisher(resume);
    this.state = new DelegationState(
      input,
      resume?.contextId ?? input.contextId ?? uuid4(),
      (status) => this.ui.publish(status),
      resume,
    );
    this.metrics = delegationMetrics(input.agent);
    this.acts = delegationActivities(this.settings);
    this.deadline = new Deadline(input, this.settings);
    this.name = input.label ?? agentLabel(input.agent);
    if (!resume) this.metrics.started();
  }

  /** The agent as activities reach it (known once the run has started, or in an explicit mode once the first send has resolved it). */
  get agent(): AgentRef {
    const { name, endpoint } = this.resolved!;
    return { name, endpoint };
  }

  /** Whether the agent is resolved: a first send given its name only resolves it when it returns. */
  get agentResolved(): boolean {
    return this.resolved !== undefined;
  }

  /** The agent as a turn or a cancel takes it: by name only while no turn has resolved it. */
  get target(): AgentTarget {
    return this.resolved ? this.agent : { name: this.input.agent };
  }

  /** Runs `work` and publishes the status it leaves once, when it ends (see {@link DelegationPublisher.batch}). */
  batch<T>(work: () => T): T {
    return this.ui.batch(work);
  }

  /** Runs `work` within the delegation's deadline (cancelled when it passes). */
  withinDeadline<T>(work: () => Promise<T>): Promise<T> {
    return this.deadline.run(work);
  }

  /**
   * Resolves the agent (once per delegation: a resumed run has it) and picks the tracker. In an
   * explicit mode the first send resolves it, in its own activity (push's also checks that the
   * agent can push): a local activity would cost the delegation a workflow activation of its own
   * before anything is sent. Not an agent named by a URL with user info or a query: an
   * activity's input is recorded in history, a local activity's is not (and the resolve refuses
   * such a URL before any request).
   */
  private start(): Promise<void> | undefined {
    const { input } = this;
    const explicit = input.mode === 'stream' || input.mode === 'poll' || input.mode === 'push';
    const byFirstTurn = !input.resume && explicit && agentLabel(input.agent) === input.agent;
    if (input.resume || byFirstTurn) return this.startWith(input.resume?.resolved);
    return this.acts
      .resolveAgent({ agent: input.agent }, `Resolve agent ${agentLabel(input.agent)}`)
      .then((resolved) => this.startWith(resolved));
  }

  private startWith(resolved: ResolvedAgent | undefined): undefined {
    this.resolved = resolved;
    this.tracker = trackerFor(resolved, this);
    if (this.input.resume) this.state.announce(); // the new run shows where the delegation stands
    return undefined;
  }

  /** The agent as the first send (a turn, or push's send) resolved it. */
  resolvedBy(resolved: ResolvedAgent): void {
    this.resolved ??= resolved;
    this.state.trackBy(this.state.status.mode, resolved.endpoint.binding);
  }

  /**
   * Starts (see {@link start}), then rounds of send, follow and ask until the task completes or
   * the agent replies with a message.
   * @throws the typed failure of a task that failed, was rejected or was canceled at the agent.
   */
  async converse(): Promise<AfterSend> {
    const starting = this.start();
    if (starting) await starting;
    const { input, state } = this;
    const first = input.resume ? undefined : firstMessage(input, state.status.contextId);
    // A run that continued while its question waited goes on waiting for the answer.
    let end = state.status.question ? undefined : await this.untilQuestion(first);
    while (!end) {
      const reply = await waitForAnswer(this, () => this.followUntilDecided());
      end =
        'resumedByAgent' in reply // authorized out of band, the task went on without a message
          ? await this.untilQuestion(undefined, reply.resumedByAgent)
          : await this.untilQuestion(answerMessage(reply.answer, reply.messageId, state));
    }
    return end;
  }

  /** The delegation's result, once every handler has finished (a promise only while one has not). */
  complete(end: AfterSend): DelegateResult | Promise<DelegateResult> {
    const result = resultOf(this.input, this.state, end);
    this.ui.batch(() => this.state.completed());
    this.metrics.completed(this.state.status.rounds);
    return allHandlersFinished() ? result : condition(allHandlersFinished).then(() => result);
  }

  /**
   * Ends a run that did not complete and returns what to throw: the typed failure, or the
   * cancellation (the deadline's failure when the deadline cancelled the work). The remote task
   * is canceled where nobody would follow it any more. A person's cancel ends the delegation
   * canceled whatever the agent answers to our CancelTask; continue-as-new passes through.
   */
  async end(err: unknown): Promise<unknown> {
    if (err instanceof ContinueAsNew) {
      this.handedOver = true; // the next run follows the same task, with the tracker's hold on it
      return err;
    }
    const { state } = this;
    state.keepProgress(progressIn(err));
    const failure = await (isCancellation(err) || CancellationScope.current().consideredCancelled
      ? this.endCanceled(err)
      : this.endFailed(err));
    this.metrics.failed(failureCode(failure), state.status.rounds);
    return failure;
  }

  /** A person canceled the delegation, or its deadline passed: the remote task is canceled too. */
  private async endCanceled(err: unknown): Promise<unknown> {
    const { state } = this;
    const taskId = state.taskId ?? turnTaskId(err);
    // The turn the cancel cut short saw the task last (a stream turn may not have handed it over yet).
    const seen = progressIn(err);
    const taskState = (seen?.taskId === taskId ? seen?.state : undefined) ?? state.status.state;
    state.canceling();
    const canceled = await this.cancelRemoteTask(this.deadline.passed ? 'the deadline passed' : 'canceled', taskId);
    if (this.deadline.passed) {
      const failure = this.deadline.failure(state, { taskId, taskState, canceled });
      state.failed(failure.message);
      return failure;
    }
    state.canceled();
    return isCancellation(err) ? err : new CancelledFailure('The delegation was canceled.');
  }

  /** The typed failure of a delegation that went wrong; a task it leaves running at the agent is canceled. */
  private async endFailed(err: unknown): Promise<Error> {
    const failure = delegationFailure(err, this.input);
    // A turn (stream, poll) that failed before the workflow adopted its task still names it in its progress.
    const taskId = this.state.taskId ?? turnTaskId(err);
    if (leavesTaskRunning(failure, this.state, taskId)) await this.cancelRemoteTask('the delegation failed', taskId);
    // An agent that could not be reached is not asked again to delete its push config: that would
    // cost another unreachable timeout; its deliveries get 410 Gone from the receiver.
    this.unreachable = failure instanceof ApplicationFailure && failure.type === FailureType.agentUnreachable;
    this.state.failed(failure.message);
    return failure;
  }

  /** Gives back what the tracker holds at the agent (push config), once, however the run ended. */
  close(): Promise<void> | undefined {
    // Not async, nor the modes' close that have nothing to give back: the SDK captures a stack trace for every promise a workflow makes.
    return this.handedOver || this.unreachable ? undefined : this.tracker?.close();
  }

  /**
   * Cancels the remote task (`taskId`, or while a turn has not named it yet, the task of
   * our message in flight), from a scope no cancellation stops. Never throws: the agent's answer
   * goes into the status (`remoteCancel`). The activity's own timeouts bound how long a hostile
   * agent can hold it. @returns whether the agent took the cancel.
   */
  async cancelRemoteTask(reason: string, taskId = this.state.taskId): Promise<boolean> {
    const sent = taskId ? undefined : this.inFlight;
    if (!taskId && !sent) return false;
    const what = taskId ?? `of message ${sent!.messageId}`;
    try {
      const task = await CancellationScope.nonCancellable(() =>
        this.acts.cancelTask(
          { agent: this.target, ...(taskId ? { taskId } : { sent }) },
          `CancelTask ${what} at ${this.name} (${reason})`,
        ),
      );
      if (task) this.state.observeState(task.status.state);
      this.state.remoteCanceled(task ? `the agent reports ${task.status.state}` : 'no task was found for our message');
      return true;
    } catch (err) {
      const why = (err as { cause?: Error }).cause?.message ?? String(err);
      this.state.remoteCanceled(`CancelTask failed: ${why}`);
      log.warn('could not cancel the remote task', { taskId, reason, error: why });
      return false;
    }
  }

  /**
   * Continues as new when the server suggests it (history grows long: answers and push
   * deliveries are events too), carrying everything the next run needs. Returns when it does not
   * suggest it, or when an answer came in while the handlers finished (it is taken first).
   */
  async continueAsNewIfSuggested(): Promise<void> {
    if (!workflowInfo().continueAsNewSuggested) return;
    await condition(allHandlersFinished);
    if (this.state.answered) return;
    await continueAsNew<(input: DelegateInput) => Promise<DelegateResult>>({ ...this.input, resume: this.carried() });
  }

  /** What the next run needs to go on with this delegation: every field, checked by the compiler. */
  private carried(): Carry {
    return {
      resolved: this.resolved!,
      ...this.state.carried(),
      ...this.tracker!.carried(),
      ...this.deadline.carried(),
      ...this.ui.carried(),
    };
  }

  /**
   * Sends `message` (if any) and follows the task until it asks (the question is published,
   * undefined returned) or ends (returned). `decided`: where the task already stands.
   */
  private untilQuestion(message?: Message, decided?: TrackOutcome): Promise<Settled> | Settled {
    if (!message) return this.decide(decided);
    // Not async: the tracker's own reaction decides (the SDK traces each promise a workflow makes).
    return this.ui.batch(() =>
      this.tracker!.send(message, (sent) =>
        sent.kind === 'message' ? sent : this.decide(sent.outcome.phase === 'running' ? undefined : sent.outcome),
      ),
    );
  }

  /** Follows the task until it decides (unless it has: `decided`), then {@link settle}s. */
  private decide(decided: TrackOutcome | undefined): Promise<Settled> | Settled {
    this.state.working();
    return decided
      ? this.settle(decided)
      : this.followUntilDecided().then((outcome) => this.ui.batch(() => this.settle(outcome)));
  }

  /** The task decided: its question is published (undefined returned), or its end returned. */
  private settle(outcome: TrackOutcome): Settled {
    const { state } = this;
    state.observe(outcome);
    if (outcome.phase === 'completed') return { kind: 'task', outcome };
    if (!isQuestion(outcome)) throw terminalFailure(outcome, state);
    state.ask(outcome, new Date().toISOString());
    return undefined;
  }

  /** Tracking rounds until the task decides: history grows per round only, and continues as new when long. */
  private async followUntilDecided(): Promise<TrackOutcome> {
    for (;;) {
      const outcome = await this.tracker!.follow();
      if (outcome.phase !== 'running') return outcome;
      this.state.observe(outcome);
      this.state.announce();
      await this.continueAsNewIfSuggested();
    }
  }
}

/** Where a round left the delegation: ended (the end), or waiting for an answer (undefined). */
type Settled = AfterSend | undefined;
