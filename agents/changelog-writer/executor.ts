import { Role } from '@a2a-js/sdk';
import { dataOf } from '../shared/parts.js';
import { SampleAgentExecutor } from '../shared/sample-executor.js';
import type { DelayDefaults } from '../shared/scenario.js';
import type { TaskTurn } from '../shared/task-turn.js';
import { changelogChunks, parseChangelogRequest } from './changelog.js';

export const CHANGELOG_ARTIFACT_ID = 'changelog';

export function createChangelogExecutor(defaults: DelayDefaults): SampleAgentExecutor {
  return new SampleAgentExecutor(writeChangelog, defaults);
}

/** Streams a markdown changelog built from the latest `{ service, from, to, dependencies? }` data part. */
export async function writeChangelog(turn: TaskTurn): Promise<void> {
  const data = turn.conversation
    .filter((m) => m.role === Role.ROLE_USER)
    .flatMap(dataOf)
    .at(-1);
  const parsed = parseChangelogRequest(data);
  if (!parsed.ok) {
    const example = '{"service":"payment-service","from":"1.4.0","to":"1.5.0"}';
    turn.fail(`Cannot write the changelog: ${parsed.problem}. Send a data part such as ${example}.`);
    return;
  }
  const { service, from, to } = parsed.request;
  turn.working(`Writing the changelog of ${service} ${from} → ${to}.`);
  if (!(await turn.delay(turn.settings.workDelayMs))) return;
  const streamed = await turn.streamArtifact({
    artifactId: CHANGELOG_ARTIFACT_ID,
    name: 'Changelog',
    description: `${service} ${from} → ${to}`,
    chunks: changelogChunks(parsed.request),
  });
  if (streamed) turn.complete(`The changelog for ${service} ${to} is ready.`);
}
