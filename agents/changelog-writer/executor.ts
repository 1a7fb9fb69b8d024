import { Role, type Part } from '@a2a-js/sdk';
import { dataOf, filePart } from '../shared/parts.js';
import { SampleAgentExecutor } from '../shared/sample-executor.js';
import type { DelayDefaults } from '../shared/scenario.js';
import type { TaskTurn } from '../shared/task-turn.js';
import { changelogChunks, parseChangelogRequest } from './changelog.js';

export const CHANGELOG_ARTIFACT_ID = 'changelog';
/** The same changelog as a file, `CHANGELOG.md`, once it is written. */
export const CHANGELOG_FILE_ARTIFACT_ID = 'changelog-file';

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
  const chunks = changelogChunks(parsed.request);
  const streamed =
    (await turn.streamArtifact({
      artifactId: CHANGELOG_ARTIFACT_ID,
      name: 'Changelog',
      description: `${service} ${from} → ${to}`,
      chunks,
    })) &&
    (await turn.streamArtifact({
      artifactId: CHANGELOG_FILE_ARTIFACT_ID,
      name: 'CHANGELOG.md',
      description: `${service} ${from} → ${to}`,
      chunks: [[filePart(Buffer.from(markdownOf(chunks)), 'CHANGELOG.md', 'text/markdown')]],
    }));
  if (streamed) turn.complete(`The changelog for ${service} ${to} is ready.`);
}

/** The text of the streamed chunks, as one markdown file. */
function markdownOf(chunks: Part[][]): string {
  return chunks
    .flat()
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}
