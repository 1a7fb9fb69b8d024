/**
 * `release`: the reference coordinator. It upgrades a service: delegates the dependency
 * analysis and other checks to A2A agents (one child `delegate` each, in parallel), relays their
 * questions to people, follows up on the analysis in the same context ("sort by risk"), writes
 * the report and waits for an approval.
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { Part, TaskState } from '../../a2a/index.js';
import type { ReleaseActivities } from '../../activities/index.js';
import type { delegate } from '../delegate/delegate.js';
import { startDelegation } from '../delegate/child.js';
import type { DelegateInput, DelegateResult } from '../../contract/delegation-types.js';
import {
  answerSignal,
  approveUpdate,
  delegationChangedSignal,
  rejectUpdate,
  releaseAnswerUpdate,
  releaseStatusQuery,
} from '../../contract/messages.js';
import { InvalidDurationError, optionalDurationMs } from '../../contract/durations.js';
import { FailureType } from '../../contract/failure-types.js';
import { buildReleaseReport, type DelegationOutcome } from './release-report.js';
import { ReleaseState } from './release-state.js';
import type {
  CheckSpec,
  Decision,
  DecisionInput,
  ReleaseInput,
  ReleaseOutcome,
  ReleaseResult,
} from '../../contract/release-types.js';
import { handleAnswers } from '../answer-handlers.js';
import { ReleasePublisher } from './release-ui.js';

/**
 * The report links its delegations' files, and the release outlives them: it records itself as
 * a holder of each file (retention keeps a blob while any holder is open or within retention).
 * A store that stays unreachable for ten minutes does not fail the release: it logs why, and the
 * files are then kept only as long as the delegations.
 */
async function holdLinkedFiles(keys: string[]): Promise<void> {
  if (!keys.length) return;
  const { 'a2a.holdFiles': holdFiles } = proxyActivities<ReleaseActivities>({
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: '10 minutes',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });
  try {
    await holdFiles({ keys });
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('the release could not record itself as a holder of its files', { error: String(err) });
  }
}

/** The text of the follow-up that turns the analysis into a sorted list of fix suggestions. */
export const SORT_REQUEST = 'Sort the fix suggestions by risk, highest first.';

/** The `release` workflow: delegates the dependency analysis and the checks, follows up for fixes sorted by risk, builds the report and waits for approval. See [docs/guide.md](../../docs/guide.md#the-commands). */
export async function release(input: ReleaseInput): Promise<ReleaseResult> {
  const approvalTimeoutMs = checkedDurations(input);
  const releaseId = workflowInfo().workflowId;
  const state = new ReleaseState(input, releaseId);
  const ui = new ReleasePublisher();
  const publish = () => ui.publish(state.status);

  // Handlers first: questions can be relayed as soon as a delegation asks.
  setHandler(releaseStatusQuery, () => state.status);
  setHandler(delegationChangedSignal, (notice) => {
    state.onNotice(notice);
    publish();
  });
  handleAnswers(releaseAnswerUpdate, {
    rejectionOf: (answer) => state.answerRejection(answer),
    async take(answer, answerId) {
      const { receipt, forward } = state.relay(answer, answerId);
      if (!forward) return receipt;
      publish();
      await getExternalWorkflowHandle(receipt.workflowId).signal(answerSignal, {
        text: answer.text,
        parts: answer.parts,
        taskId: receipt.taskId,
        ...(receipt.questionId ? { questionId: receipt.questionId } : {}),
        answerId,
        ...(answer.by ? { by: answer.by } : {}),
      });
      return receipt;
    },
  });
  const decide = (outcome: Decision['outcome']) => (input: DecisionInput) => {
    const decision = state.decide(outcome, input, new Date().toISOString());
    publish();
    return decision;
  };
  setHandler(approveUpdate, decide('approved'), {
    validator: (d) => rejectWith(state.decisionRejection('approved', d)),
  });
  setHandler(rejectUpdate, decide('rejected'), {
    validator: (d) => rejectWith(state.decisionRejection('rejected', d)),
  });

  const outcomes: Array<Promise<DelegationOutcome>> = [];
  try {
    publish();
    const analysisSpec: CheckSpec = { label: 'compat', ...input.compat };
    const specs = [analysisSpec, ...input.checks];
    const children = await Promise.all(specs.map((spec) => start(spec, delegationInput(input, spec))));
    children.forEach((child, i) => outcomes.push(follow(child, specs[i]!)));

    const analysis = await outcomes[0]!;
    let sorted: DelegationOutcome | undefined;
    if (analysis.result?.taskId) {
      state.setPhase('following-up');
      publish();
      const spec: CheckSpec = { label: 'compat-sorted', agent: input.compat.agent };
      const child = await start(spec, {
        agent: spec.agent,
        label: spec.label,
        text: SORT_REQUEST,
        contextId: analysis.result.contextId,
        referenceTaskIds: [analysis.result.taskId],
        mode: input.mode,
        inputTimeout: input.inputTimeout,
      });
      sorted = await follow(child, spec);
    }
    const checks = await Promise.all(outcomes.slice(1));
    const report = buildReleaseReport(input, analysis, sorted, checks);
    state.reported(report);
    await holdLinkedFiles(report.files.map((f) => f.ref.key));

    if (!analysis.result) {
      return await finish(
        'failed',
        `The dependency analysis by ${input.compat.agent} did not complete: ${analysis.failure?.message ?? 'no result'}`,
      );
    }
    state.setPhase('awaiting-approval');
    publish();
    const decided = approvalTimeoutMs
      ? await condition(() => state.status.decision !== undefined, approvalTimeoutMs)
      : await condition(() => state.status.decision !== undefined).then(() => true);
    const decision = decided
      ? state.status.decision!
      : state.decisionTimedOut(String(input.approvalTimeout), new Date().toISOString());
    return await finish(decision.outcome, decision.reason);
  } catch (err) {
    if (isCancellation(err)) {
      // Children are cancelled with the release; wait until their remote tasks are canceled too.
      await CancellationScope.nonCancellable(() => Promise.allSettled(outcomes));
      state.setPhase('canceled');
      publish();
    }
    throw err;
  }

  async function start(spec: CheckSpec, delegation: DelegateInput): Promise<ChildWorkflowHandle<typeof delegate>> {
    const workflowId = `${releaseId}/${spec.label}`;
    state.track(spec.label, workflowId, spec.agent);
    publish();
    return startDelegation(delegation, {
      workflowId,
      summary: `${spec.label} for release ${input.service} ${input.toVersion} (agent ${spec.agent})`,
    });
  }

  /** Waits for a child's result; a failed check becomes an outcome, a cancelled release stays cancelled. */
  async function follow(child: ChildWorkflowHandle<typeof delegate>, spec: CheckSpec): Promise<DelegationOutcome> {
    const base = { label: spec.label, agent: spec.agent, workflowId: child.workflowId };
    try {
      const result: DelegateResult = await child.result();
      state.ended(spec.label, 'completed', { state: result.state });
      publish();
      return { ...base, result };
    } catch (err) {
      if (isCancellation(err) && CancellationScope.current().consideredCancelled) throw err;
      const failure = failureOf(err);
      state.ended(spec.label, isCancellation(err) ? 'canceled' : 'failed', {
        state: failure.state,
        error: failure.message,
      });
      publish();
      return { ...base, failure };
    }
  }

  async function finish(outcome: ReleaseOutcome, reason?: string): Promise<ReleaseResult> {
    state.finished(outcome, reason);
    publish();
    await condition(allHandlersFinished);
    const { service, fromVersion, toVersion, decision, report } = state.status;
    return { releaseId, service, fromVersion, toVersion, outcome, reason, decision, report };
  }
}

function delegationInput(input: ReleaseInput, spec: CheckSpec): DelegateInput {
  const parts = [
    { data: input.manifest, mediaType: 'application/json' },
    { data: { service: input.service, from: input.fromVersion, to: input.toVersion }, mediaType: 'application/json' },
  ] as Part[];
  return {
    agent: spec.agent,
    label: spec.label,
    text: spec.request ?? defaultRequest(spec.label, input),
    parts,
    metadata: spec.metadata,
    mode: input.mode,
    inputTimeout: input.inputTimeout,
  };
}

function defaultRequest(label: string, { service, fromVersion, toVersion }: ReleaseInput): string {
  switch (label) {
    case 'compat':
      return `Analyse the dependencies of ${service} for the upgrade from ${fromVersion} to ${toVersion}: which are at risk on the target Node.js version, and what should they move to?`;
    case 'changelog':
      return `Write the changelog of ${service} for the upgrade from ${fromVersion} to ${toVersion}.`;
    case 'license':
      return `Check the licenses and known-compromised versions among the dependencies of ${service}.`;
    default:
      return `Check ${service} for the upgrade from ${fromVersion} to ${toVersion}.`;
  }
}

/** The failure behind a child's error: the first typed failure in its cause chain (e.g. A2A_TASK_FAILED). */
function failureOf(err: unknown): { type?: string; message: string; state?: TaskState } {
  for (
    let e = err as { type?: unknown; message?: string; name?: string; cause?: unknown; details?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e.type === 'string') {
      const details = Array.isArray(e.details) ? (e.details[0] as { state?: TaskState } | undefined) : undefined;
      return { type: e.type, message: e.message ?? e.type, state: details?.state };
    }
    if (e.name === 'CancelledFailure') return { type: 'CANCELED', message: e.message || 'canceled' };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

function rejectWith(reason: string | undefined): void {
  if (reason) throw new Error(reason);
}

/**
 * The release's own durations, checked before anything starts.
 *
 * @throws ApplicationFailure `A2A_INVALID_INPUT` naming the setting (never a workflow task failing forever).
 */
function checkedDurations(input: ReleaseInput): number | undefined {
  try {
    optionalDurationMs(input.inputTimeout, 'inputTimeout');
    return optionalDurationMs(input.approvalTimeout, 'approvalTimeout');
  } catch (err) {
    if (!(err instanceof InvalidDurationError)) throw err;
    throw ApplicationFailure.nonRetryable(
      `${err.message} Nothing was started; start the release again with a valid value.`,
      FailureType.invalidInput,
    );
  }
}
