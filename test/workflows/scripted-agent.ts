/**
 * A scripted stand-in for the delegation activities (the network side), in the manner of the
 * samples' FakeModel: a test writes down, step by step, which activity the workflow must call
 * next and what it gets back. A call that is not the next step, or any call after the last
 * one, fails the activity non-retryably with a sentence that says so, and `expectPlayed()`
 * fails the test: a script never answers something it was not told to.
 */
import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { expect } from 'vitest';
import type { Message, Task, TaskState } from '../../a2a/index.js';
import type { DelegationActivities, TrackOutcome, TrackProgress } from '../../activities/index.js';
import type { ResolvedAgent } from '../../contract/delegation-types.js';

type Name = keyof DelegationActivities;
type Input<N extends Name> = Parameters<DelegationActivities[N]>[0];
type Output<N extends Name> = Awaited<ReturnType<DelegationActivities[N]>>;

/** One expected call and its answer (a value, or a function of the call's input). */
export type Step = {
  [N in Name]: { call: N; answer: Output<N> | ((input: Input<N>) => Output<N> | Promise<Output<N>>) };
}[Name];

export class ScriptedAgent {
  /** Every call the workflow made, in order, with its input. */
  readonly calls: Array<{ call: Name; input: unknown }> = [];
  private readonly problems: string[] = [];
  private readonly steps: Step[];

  constructor(steps: Step[]) {
    this.steps = [...steps];
  }

  /** Answers one call with the next step, or fails it loudly. */
  async play<N extends Name>(call: N, input: Input<N>): Promise<Output<N>> {
    this.calls.push({ call, input });
    const step = this.steps.shift();
    if (!step) throw this.refuse(`The script ran out: the workflow called ${call} after the last step.`);
    if (step.call !== call) {
      throw this.refuse(`The script expected ${step.call} next, but the workflow called ${call}.`);
    }
    const { answer } = step as unknown as { answer: Output<N> | ((input: Input<N>) => Promise<Output<N>>) };
    return typeof answer === 'function' ? (answer as (input: Input<N>) => Promise<Output<N>>)(input) : answer;
  }

  /** The inputs of the calls to `call`, in order. */
  inputsOf<N extends Name>(call: N): Array<Input<N>> {
    return this.calls.filter((c) => c.call === call).map((c) => c.input as Input<N>);
  }

  /** Every step was played and nothing was called off script. */
  expectPlayed(): void {
    expect(this.problems).toEqual([]);
    expect(
      this.steps.map((s) => s.call),
      'steps the workflow never reached',
    ).toEqual([]);
  }

  private refuse(problem: string): ApplicationFailure {
    this.problems.push(problem);
    return ApplicationFailure.nonRetryable(problem, 'SCRIPT_BROKEN');
  }
}

/**
 * The activities a worker registers: each call is played by the script of the workflow that
 * made it (`scriptOf(workflowId)`), so the children of a coordinator each follow their own.
 */
export function scriptedActivities(scriptOf: (workflowId: string) => ScriptedAgent): DelegationActivities {
  const play =
    <N extends Name>(call: N) =>
    (input: Input<N>) =>
      scriptOf(Context.current().info.workflowExecution?.workflowId ?? '').play(call, input);
  // A first send is given the agent by name only, and says what it resolved, as the real one does.
  const firstPlay =
    <N extends 'a2a.streamMessage' | 'a2a.pollMessage' | 'a2a.sendMessage'>(call: N, mode: ResolvedAgent['autoMode']) =>
    async (input: Input<N>): Promise<Awaited<ReturnType<DelegationActivities[N]>>> => {
      const outcome = (await play(call)(input)) as Awaited<ReturnType<DelegationActivities[N]>>;
      return input.agent.endpoint ? outcome : { ...outcome, resolved: resolved(mode) };
    };
  return {
    'a2a.resolveAgent': play('a2a.resolveAgent'),
    'a2a.sendMessage': firstPlay('a2a.sendMessage', 'push'),
    'a2a.streamMessage': firstPlay('a2a.streamMessage', 'stream'),
    'a2a.pollMessage': firstPlay('a2a.pollMessage', 'poll'),
    'a2a.trackTask': play('a2a.trackTask'),
    'a2a.cancelTask': play('a2a.cancelTask'),
    'a2a.getTask': play('a2a.getTask'),
    'a2a.registerPushConfig': play('a2a.registerPushConfig'),
    'a2a.deletePushConfig': play('a2a.deletePushConfig'),
  };
}

export const TASK_ID = 'task-1';
export const CONTEXT_ID = 'context-1';

/** The agent as resolveAgent returns it, tracked in `mode` by `auto`. */
export function resolved(autoMode: ResolvedAgent['autoMode'] = 'poll'): ResolvedAgent {
  return {
    name: 'compat',
    cardUrl: 'https://compat.test/.well-known/agent-card.json',
    card: { name: 'Compat', capabilities: { streaming: true, pushNotifications: autoMode === 'push' } },
    endpoint: { url: 'https://compat.test/a2a', binding: 'HTTP+JSON', protocolVersion: '1.0' },
    autoMode,
  };
}

/** The task in `state`; `question` makes its status message (id `messageId`). */
export function task(state: TaskState, question?: { text: string; messageId: string }): Task {
  const message = question
    ? ({ messageId: question.messageId, role: 'ROLE_AGENT', parts: [{ text: question.text }] } as Message)
    : undefined;
  return { id: TASK_ID, contextId: CONTEXT_ID, status: { state, ...(message ? { message } : {}) } } as Task;
}

const PHASES: Record<TrackOutcome['phase'], TaskState> = {
  running: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
};

/** Where a tracking round (or a read) left the task. */
export function outcome(
  phase: TrackOutcome['phase'],
  extra: { text?: string; messageId?: string; report?: string; unreachableSince?: number; droppedBytes?: number } = {},
): TrackOutcome {
  const state = PHASES[phase];
  const question = extra.messageId ? { text: extra.text ?? '', messageId: extra.messageId } : undefined;
  return {
    phase,
    task: task(state, question),
    status: { state, ...(extra.messageId ? { messageId: extra.messageId } : {}) },
    statusText: extra.text ?? '',
    artifacts: extra.report ? [{ artifactId: 'report', parts: [{ text: extra.report }] }] : [],
    ...(extra.unreachableSince ? { unreachableSince: extra.unreachableSince } : {}),
    ...(extra.droppedBytes ? { droppedBytes: extra.droppedBytes } : {}),
  } as TrackOutcome;
}

/** SendMessage's answer (push mode's send): the task, running, or (with `decided`) already decided. */
export function sent(decided?: TrackOutcome): Output<'a2a.sendMessage'> {
  if (!decided) return { kind: 'task', task: task('TASK_STATE_WORKING'), adopted: false };
  const { task: decidedTask, phase, status, statusText, artifacts } = decided;
  return { kind: 'task', task: { ...decidedTask, artifacts }, adopted: false, decided: { phase, status, statusText } };
}

/** A stream turn's answer: the task as the turn left it. */
export function turn(end: TrackOutcome): Output<'a2a.streamMessage'> {
  return { kind: 'task', ...end };
}

/**
 * An answer held back until the test releases it: the activity heartbeats meanwhile (as a real
 * tracking round does while the agent is silent), so the test can look at what the workflow shows
 * before the agent moves on, without guessing how long that takes.
 */
export function heldUntilReleased<T>(answer: T): { answer: () => Promise<T>; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    async answer() {
      for (let done = false; !done;) {
        Context.current().heartbeat();
        done = await Promise.race([
          released.then(() => true),
          Context.current()
            .sleep(100)
            .then(() => false),
        ]);
      }
      return answer;
    },
    release: () => release(),
  };
}

/**
 * An activity that runs until the workflow cancels it, heartbeating `seen` (what a turn had seen
 * of its task, the task id empty while the agent has not named it; or made from the activity's
 * input), and then fails as cancelled with `seen` as its details, as a real turn does. `started`
 * resolves once it runs.
 */
export function heldUntilCancelled<I>(seenOf: TrackProgress | ((input: I) => TrackProgress)): {
  answer: (input: I) => Promise<never>;
  started: Promise<void>;
} {
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  return {
    async answer(input: I) {
      const context = Context.current();
      const seen = typeof seenOf === 'function' ? seenOf(input) : seenOf;
      started();
      for (;;) {
        context.heartbeat(seen);
        try {
          await context.sleep(100);
        } catch {
          throw new CancelledFailure('the activity was cancelled', [seen]);
        }
      }
    },
    started: running,
  };
}
