/**
 * The image's build step (Dockerfile: `node dist/worker/write-workflow-bundle.js <file>`), run
 * from sources: the bundle it writes is what workers get through A2A_WORKFLOW_BUNDLE, so it must
 * replay every recorded history of today's workflows.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';

const histories = join(packageRoot, 'test', 'fixtures', 'histories');

describe('write-workflow-bundle', () => {
  it('writes a bundle of the worker workflows that replays the recorded histories', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'a2a-bundle-')), 'workflow-bundle.js');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(packageRoot, 'worker', 'write-workflow-bundle.ts'), out],
      { cwd: packageRoot },
    );
    expect(stdout).toMatch(new RegExp(`^Workflow bundle written to ${out} in [\\d.]+ s$`, 'm'));

    const workflowIds = JSON.parse(readFileSync(join(histories, 'workflow-ids.json'), 'utf8')) as Record<
      string,
      string
    >;
    const files = readdirSync(histories).filter((f) => f.endsWith('.json') && f !== 'workflow-ids.json');
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { codePath: out } },
      files.map((file) => ({
        workflowId: workflowIds[file] ?? file,
        history: JSON.parse(readFileSync(join(histories, file), 'utf8')) as unknown,
      })),
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(files.length).toBeGreaterThan(0);
  });
});
