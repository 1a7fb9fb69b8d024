import { TaskState } from '@a2a-js/sdk';
import { SampleAgentExecutor } from '../shared/sample-executor.js';
import type { DelayDefaults } from '../shared/scenario.js';
import type { TaskTurn } from '../shared/task-turn.js';
import { analyseManifest, countByRisk, sortFindingsByRisk } from './analysis.js';
import {
  isReportFollowUp,
  nextStep,
  readConversation,
  type CompatConversation,
  type CompatStep,
} from './conversation.js';
import {
  findingsFromTask,
  REPORT_ARTIFACT_ID,
  REPORT_ARTIFACT_NAME,
  reportChunks,
  SORTED_ARTIFACT_ID,
  SORTED_ARTIFACT_NAME,
  sortedSuggestionParts,
} from './report.js';

/** The Dependency Compatibility Agent's executor: the shared scenarios plus {@link analyseDependencies}. */
export function createDependencyCompatExecutor(defaults: DelayDefaults): SampleAgentExecutor {
  return new SampleAgentExecutor(analyseDependencies, defaults);
}

/** How long the `auth-out-of-band` scenario stays in AUTH_REQUIRED before it resumes on its own. */
export const OUT_OF_BAND_AUTH_DELAY_MS = 1000;

/**
 * One turn of the compatibility analysis: ask for what is missing (registry authorization in the
 * `auth-required` and `auth-out-of-band` scenarios, the target Node.js version, the package
 * manager in the `second-question` scenario), else stream the report. A new task that references
 * an earlier one gets that report's fix suggestions sorted by risk instead.
 */
export async function analyseDependencies(turn: TaskTurn): Promise<void> {
  if (!turn.task && isReportFollowUp(turn.userMessage)) {
    await sortReferencedSuggestions(turn);
    return;
  }
  const conversation = readConversation(turn.conversation);
  await runStep(turn, conversation, nextStep(conversation, turn.settings.scenario));
}

async function runStep(turn: TaskTurn, conversation: CompatConversation, step: CompatStep): Promise<void> {
  switch (step.kind) {
    case 'fail':
      turn.fail(step.reason);
      return;
    case 'ask':
      turn.working();
      // Only when asked to: the question otherwise follows in the same tick, as one stream write.
      if (turn.settings.askDelayMs > 0 && !(await turn.delay(turn.settings.askDelayMs))) return;
      turn.ask(
        step.auth ? TaskState.TASK_STATE_AUTH_REQUIRED : TaskState.TASK_STATE_INPUT_REQUIRED,
        step.question,
        step.questionId,
      );
      if (step.auth && turn.settings.scenario === 'auth-out-of-band') {
        // The A2A way for credentials that arrive out of band: the task resumes without a new
        // message, and clients that keep watching the task see it move on.
        if (!(await turn.delay(OUT_OF_BAND_AUTH_DELAY_MS))) return;
        const authorized = { ...conversation, registryAuthorized: true };
        turn.working('Access to the private npm registry was granted; resuming.');
        await runStep(turn, authorized, nextStep(authorized, turn.settings.scenario));
      }
      return;
    case 'analyse': {
      const { manifest, targetNode, packageManager } = step;
      const service = manifest.name ?? 'the service';
      turn.working(`Analysing the dependencies of ${service} for Node.js ${targetNode}.`);
      if (!(await turn.delay(turn.settings.workDelayMs))) return;
      const findings = analyseManifest(manifest, targetNode);
      const streamed = await turn.streamArtifact({
        artifactId: REPORT_ARTIFACT_ID,
        name: REPORT_ARTIFACT_NAME,
        description: `Dependency compatibility of ${service} with Node.js ${targetNode}`,
        chunks: reportChunks({ manifest, targetNode, findings, packageManager }),
      });
      if (!streamed) return;
      const counts = countByRisk(findings);
      turn.complete(
        `The compatibility report for ${service} on Node.js ${targetNode} is ready: ` +
          `${counts.high} high, ${counts.medium} medium and ${counts.low} low risk findings.`,
      );
      return;
    }
  }
}

async function sortReferencedSuggestions(turn: TaskTurn): Promise<void> {
  const wanted = turn.userMessage.referenceTaskIds;
  const report = turn.referenceTasks.map(findingsFromTask).find((found) => found !== undefined);
  if (!report) {
    turn.fail(
      turn.referenceTasks.length === 0
        ? `Cannot sort the fix suggestions: the referenced task ${wanted.join(', ')} is unknown to this agent.`
        : `Cannot sort the fix suggestions: the referenced task ${wanted.join(', ')} has no compatibility report.`,
    );
    return;
  }
  turn.working('Sorting the fix suggestions of the referenced report by risk.');
  if (!(await turn.delay(turn.settings.workDelayMs))) return;
  const sorted = sortFindingsByRisk(report.findings);
  const streamed = await turn.streamArtifact({
    artifactId: SORTED_ARTIFACT_ID,
    name: SORTED_ARTIFACT_NAME,
    description: "The referenced report's fix suggestions, high risk first",
    chunks: [sortedSuggestionParts(sorted, report.targetNode)],
  });
  if (streamed) turn.complete(`Sorted ${sorted.length} fix suggestions by risk (high first).`);
}
