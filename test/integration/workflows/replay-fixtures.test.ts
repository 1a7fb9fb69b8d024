/**
 * Histories recorded from real runs (test/fixtures/histories, see record-histories.ts there)
 * replay against today's workflow code without a determinism error: the runs that are open in a
 * cluster when a worker is upgraded must go on. A change that alters the commands of a recorded
 * run needs `patched()`; a failing replay here is never fixed by recording the fixture again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';
import { temporalServer } from '../../helpers/temporal.js';

const folder = join(packageRoot, 'test', 'fixtures', 'histories');
const workflowIds = JSON.parse(readFileSync(join(folder, 'workflow-ids.json'), 'utf8')) as Record<string, string>;
const fixtures = readdirSync(folder)
  .filter((file) => file.endsWith('.json') && file !== 'workflow-ids.json')
  .sort();

describe('recorded histories', () => {
  it('include stream, poll and push runs, input rounds, cancellations, continue-as-new and a release', () => {
    const names = fixtures.join(' ');
    for (const kind of ['stream', 'poll', 'push', 'canceled', 'continued', 'release', 'timeout'])
      expect(names).toContain(kind);
  });

  it('replay against the current workflow code without a determinism error', async () => {
    const histories = fixtures.map((file) => ({
      workflowId: workflowIds[file] ?? file,
      history: JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown,
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { codePath: temporalServer().workflowBundlePath } },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
  });
});
