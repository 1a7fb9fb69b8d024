/**
 * Push mode: SendMessage with `returnImmediately`, then a GetTask; a task still working then gets
 * a push config registered at the agent (its credential derived from the receiver secret inside
 * the activity) and is read again; then the workflow waits — no activity runs, no connection stays
 * open — for a `taskUpdated` notice from the webhook receiver (or the safety-net timer) and reads
 * the task with GetTask: first as a local activity in the workflow task the notice woke, then,
 * when that attempt fails or is slow, as an activity with retries (see activity-proxies.ts). A
 * config lasts until its task ends (A2A), so the config of a task found ended is forgotten, not
 * deleted; `close` deletes one whose task may still run (the delegation failed or was cancelled).
 */
import { CancellationScope, condition, isCancellation, log, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import type { Message } from '../../../a2a/index.js';
import type { SendProgress, TrackOutcome } from '../../../activities/index.js';
import { isAnsweredStatus } from '../../../contract/answered-status.js';
import type { StatusKey, TaskUpdatedNotice } from '../../../contract/delegation-types.js';
import type { TaskUpdateWanted } from '../../../contract/messages.js';
import { ENDED_PHASES, needsPushConfig } from '../../../contract/track-phase.js';
import type { Delegation } from '../delegation.js';
import { progressIn } from '../outcomes.js';
import { outOfTime } from '../unreachable.js';
import { adoptSent, sendMessage, type PushSend } from './send.js';
import type { AfterSend, Tracker } from './tracker.js';

export function pushMode(run: Delegation): Tracker {
  // `run.agent` is read when used: a first send given the agent's name resolves it.
  const { acts, state, input, name, settings, notices } = run;
  /** The config registered at the agent for the task followed (carried across continue-as-new). */
  let config: { taskId: string; configId: string } | undefined;
  /** Holds `next` as the config followed: the receiver's notices are matched against it. */
  const hold = (next: typeof config) => {
    config = next;
    notices.configId = next?.configId;
  };
  hold(
    input.resume?.pushConfigId && input.resume.taskId
      ? { taskId: input.resume.taskId, configId: input.resume.pushConfigId }
      : undefined,
  );
  /**
   * Whether the next `follow` reads the task at once instead of waiting for a notice first: after
   * a read that decided something (the next follow watches a question), after resuming, and
   * after a send whose activity did not read the task.
   */
  let readAtOnce = true;
  const wakeUps = new WakeUpLimit(settings.pushWakeUpsPerMinute);
  /** Deliveries are signals, each a history event: an agent that delivers without end must not grow history without bound. */
  const historyLong = () => workflowInfo().continueAsNewSuggested;

  /** A config chosen after a send but not registered yet: the next read registers it first. */
  let unregistered: string | undefined;

  /**
   * The safety-net timer, kept across the waits while the task runs: a delivery that wakes the
   * delegation leaves it running, so a wait costs no TimerStarted and TimerCanceled of its own
   * (the read after it may come sooner than a full interval after that wait began, never later).
   * Dropped without an event when the delegation ends or continues as new; cancelled when the
   * task asks something (a wait for a person's answer must not be woken by it).
   */
  let safetyNet: { scope: CancellationScope; fired: boolean } | undefined;
  const armSafetyNet = () => {
    if (safetyNet) return safetyNet;
    const net = { scope: new CancellationScope(), fired: false };
    net.scope
      .run(() => sleep(settings.pushSafetyNetMs))
      .then(
        () => (net.fired = true),
        // Cancelled: by a question (nobody waits on it then), or with the scope the delegation
        // follows in; a wait still on it reads rather than going on without a safety net.
        () => {
          net.fired = true;
          if (safetyNet === net) safetyNet = undefined;
        },
      );
    return (safetyNet = net);
  };
  const disarmSafetyNet = () => {
    safetyNet?.scope.cancel();
    safetyNet = undefined;
  };

  /** The config ended with its task (A2A): nothing to delete. */
  const forgetEndedWith = (taskId: string) => {
    if (config?.taskId === taskId) hold(undefined);
  };

  const unregister = async (): Promise<void> => {
    if (!config) return;
    const { taskId, configId } = config;
    hold(undefined);
    if (unregistered === configId) return; // never sent to the agent: no read took it yet
    try {
      await CancellationScope.nonCancellable(() =>
        acts.deletePushConfig(
          { agent: run.agent, taskId, configId },
          `Delete push config of task ${taskId} at ${name}`,
        ),
      );
    } catch (err) {
      log.warn('could not delete the push config; the agent may go on delivering to a receiver that answers 410', {
        taskId,
        configId,
        error: String(err),
      });
    }
  };

  /**
   * Registered after the send: the task id (part of the credential) is known only now. When a
   * read follows (the task is running), the read registers it first, in the same activity, so
   * nothing the agent did before is missed; when the send brought an authentication question,
   * nothing reads until a delivery says it was resolved out of band, so it is registered now.
   */
  const register = async (taskId: string, readFollows: boolean, configId = uuid4()): Promise<void> => {
    await unregister();
    const registration = { taskId, configId };
    hold(registration);
    if (readFollows) {
      unregistered = registration.configId;
      return;
    }
    try {
      await acts.registerPushConfig(
        { agent: run.agent, ...registration },
        `Register push config for task ${taskId} at ${name}`,
      );
    } catch (err) {
      // Nobody could follow the task: do not leave it running at the agent (unless the agent
      // cannot be reached at all: asking it to cancel would cost another unreachable timeout;
      // a cancellation cancels it on the way out).
      if (!outOfTime(err) && !isCancellation(err)) await run.cancelRemoteTask('push config refused');
      throw err;
    }
  };

  /**
   * A send. A cancellation meanwhile reaches the activity, which lets the request finish and names
   * the task it created in its failure (the delegation cancels that task, or while the agent has
   * not named one, the task of the message in flight) and the config it may have registered.
   */
  const sendOnce = <T>(message: Message, next: (sent: AfterSend) => T | PromiseLike<T>): Promise<T> => {
    notices.clear(); // from here on, a delivery is about this message
    // A message of ours starts a fresh allowance: an agent that spent the last one flooding
    // must not delay the reads about the answer a person just gave (each send is a person's or
    // the delegation's own, never the agent's, so this cannot be driven by the agent).
    wakeUps.reset();
    // The send reads the task it creates or answers once (registering a config for it first
    // when it still works): an agent that is quick has decided by then, and needs no config.
    const fresh = config ? undefined : uuid4();
    run.inFlight = message;
    const sending = sendMessage(run, message, fresh ? { register: { configId: fresh } } : { registered: config! });
    const leave = notices.enter(); // after the call: nothing it throws can leave the notices busy
    // Not async: one reaction instead of an async function's promises (the SDK traces each one).
    return sending.then(
      (outcome) =>
        run.batch(() => {
          run.inFlight = undefined;
          let sent: PushSend;
          try {
            sent = adoptSent(run, outcome); // still busy: a delivery meanwhile is asked about again after it
          } finally {
            leave();
          }
          const after = settle(sent, fresh);
          return after instanceof Promise ? after.then((a) => run.batch(() => next(a))) : next(after);
        }),
      (err: unknown) => {
        leave();
        // Cancelled after it may have registered: the config is deleted on the way out. (A first
        // send given the agent by name did not return what it resolved; the task is canceled,
        // which ends its config, and the receiver answers 410 to deliveries meanwhile.)
        const seen = progressIn(err) as SendProgress | undefined;
        if (fresh && seen?.taskId && seen.pushConfigId === fresh && run.agentResolved) {
          hold({ taskId: seen.taskId, configId: fresh });
        }
        throw err;
      },
    );
  };

  /** What a send leaves held at the agent: the config it registered, or one registered or given back now. */
  const settle = (sent: PushSend, fresh: string | undefined): AfterSend | Promise<AfterSend> => {
    const { after } = sent;
    if (after.kind === 'message') return after;
    const { task, phase } = after.outcome;
    if (sent.registered) hold({ taskId: task.id, configId: sent.registered });
    // What the agent delivered during the send is offered again now (the `later` answer).
    readAtOnce = !sent.read;
    if (ENDED_PHASES.has(phase)) forgetEndedWith(task.id);
    else if (config?.taskId === task.id) return after;
    // A question for us needs no config until the answer's send finds the task working again.
    else if (needsPushConfig(phase)) return register(task.id, phase === 'running', fresh).then(() => after);
    else if (config) return unregister().then(() => after);
    return after;
  };

  return {
    send: sendOnce,

    async follow(): Promise<TrackOutcome> {
      if (!readAtOnce) {
        const net = armSafetyNet();
        await condition(() => notices.pending || historyLong() || net.fired);
        if (net.fired) safetyNet = undefined; // the next wait starts a new interval
      }
      // A config chosen but not registered yet is registered by this read before the run may continue.
      if (!unregistered) await run.continueAsNewIfSuggested();
      // An agent that delivers without end wakes the delegation at most so often (each read is history).
      const wait = wakeUps.admit(Date.now());
      if (wait > 0 && (await condition(historyLong, wait))) await run.continueAsNewIfSuggested();
      notices.clear();
      const configId = config?.configId;
      const registering = unregistered;
      unregistered = undefined; // from here on the agent may hold it: it is deleted when the delegation ends
      const read: Parameters<typeof acts.getTask> = [
        {
          agent: run.agent,
          taskId: state.taskId!,
          contextId: state.status.contextId,
          handled: state.handled,
          ...(registering ? { register: { configId: registering } } : {}),
          ...(configId ? { pushConfigId: configId } : {}),
        },
        `${registering ? 'Register push config and GetTask' : 'GetTask'} ${state.taskId} at ${name} (push)`,
      ];
      // Locally first (one marker); an agent that fails or is slow gets the activity's retries and status.
      const { pushConfigRegistered: registered, ...outcome } = await notices.during(() =>
        acts.getTaskLocally(...read).catch((err: unknown) => {
          if (isCancellation(err)) throw err;
          return acts.getTask(...read);
        }),
      );
      if (ENDED_PHASES.has(outcome.phase)) forgetEndedWith(state.taskId!);
      // A read that found a question did not register: the agent holds no config to delete.
      else if (registering && !registered && !needsPushConfig(outcome.phase)) hold(undefined);
      readAtOnce = outcome.phase !== 'running';
      if (outcome.phase === 'input-required' || outcome.phase === 'auth-required') disarmSafetyNet();
      return outcome;
    },

    // Not the async function when nothing is held: each promise costs the SDK a stack capture.
    close: () => (config ? unregister() : undefined),
    carried: () => ({ pushConfigId: config?.configId }),
  };
}

/**
 * Whether a verified delivery for the task being followed arrived since the last read. A flag,
 * not a queue: any number of notices before the next read cause one read.
 */
export class PushNotices {
  private notified = false;
  /** The config registered for the task followed: a notice bound to another one is ignored. */
  configId: string | undefined;
  /** Sends and reads under way: a delivery meanwhile is offered again after them. */
  private busy = 0;

  /**
   * Raises the flag for a notice about `taskId`. Ignored: notices about another task or bound to
   * another push config (a credential of an earlier registration, or of another run that had
   * this workflow id), and those showing the question already answered (`handled`, e.g. the task snapshot an agent sends when
   * the answer arrives), which could only lead to a read that decides nothing. During a send
   * (signalled when the receiver could not ask: the worker was down) the task and config may not
   * be known yet, so only the answered question is ignored: the read after it decides.
   */
  receive(notice: TaskUpdatedNotice, taskId: string | undefined, handled: StatusKey | undefined): boolean {
    const ignored = this.busy > 0 ? isAnsweredStatus(notice, handled) : !this.concerns(notice, taskId, handled);
    if (ignored) return false;
    this.notified = true;
    return true;
  }

  /**
   * Whether the delegation wants this notice signalled now (the `taskUpdateWanted` query). `later`
   * while the task is sent to or read: a send may be creating the task and registering its config
   * (neither is known here before it returns), and what a read finds may end the delegation, when
   * a signal arriving in the workflow task that completes it fails that task; the notice is asked
   * about again after it. `no` needs no signal ever: the task and config followed change only to
   * ones registered later, and a question once answered is never news again.
   */
  wants(notice: TaskUpdatedNotice, taskId: string | undefined, handled: StatusKey | undefined): TaskUpdateWanted {
    if (this.busy > 0) return 'later';
    return this.concerns(notice, taskId, handled) ? 'yes' : 'no';
  }

  /** Runs a send or read of the task; the receiver is told `later` meanwhile. */
  during<T>(io: () => Promise<T>): Promise<T> {
    const leave = this.enter();
    // Not async: one reaction instead of an async function's promises (the SDK traces each one).
    return io().then(
      (value) => (leave(), value),
      (err: unknown) => {
        leave();
        throw err;
      },
    );
  }

  /** A send or read of the task begins; call what it returns when it has ended, however it ended. */
  enter(): () => void {
    this.busy += 1;
    return () => (this.busy -= 1);
  }

  /** The notice is about the task and config followed, and not the question already answered. */
  private concerns(notice: TaskUpdatedNotice, taskId: string | undefined, handled: StatusKey | undefined): boolean {
    if (!taskId || notice?.taskId !== taskId) return false;
    if (notice.configId !== undefined && notice.configId !== this.configId) return false;
    return !isAnsweredStatus(notice, handled);
  }

  get pending(): boolean {
    return this.notified;
  }

  /** Called right before each read, so a delivery during the read causes another one. */
  clear(): void {
    this.notified = false;
  }
}

/**
 * How many reads a minute push mode allows itself, whatever the agent delivers: past the limit
 * the next read waits until the oldest of the last minute's reads is a minute old. Pure (the
 * workflow passes its own clock), so it is unit-tested without Temporal.
 */
export class WakeUpLimit {
  private readonly reads: number[] = [];

  constructor(private readonly perMinute: number) {}

  /** Forgets the reads so far: the next `perMinute` reads are admitted at once. */
  reset(): void {
    this.reads.length = 0;
  }

  /** Records a read at `now` (epoch ms) and returns how long it must wait first (0: at once). */
  admit(now: number): number {
    while (this.reads.length > 0 && this.reads[0]! <= now - 60_000) this.reads.shift();
    const wait = this.reads.length < this.perMinute ? 0 : this.reads[0]! + 60_000 - now;
    this.reads.push(now + wait);
    return wait;
  }
}
