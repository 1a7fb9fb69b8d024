import type { Artifact, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { analyseManifest } from '../../../../agents/dependency-compat/analysis.js';
import {
  findingsFromTask,
  REPORT_ARTIFACT_ID,
  reportChunks,
  sortedSuggestionParts,
} from '../../../../agents/dependency-compat/report.js';
import type { Manifest } from '../../../../agents/shared/manifest.js';

const manifest: Manifest = {
  name: 'payment-service',
  version: '1.4.0',
  dependencies: { 'node-sass': '^7.0.3', express: '^4.18.2' },
  devDependencies: { jest: '^27.5.1' },
};

function taskWith(artifacts: Artifact[]): Task {
  return {
    id: 't',
    contextId: 'c',
    status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
    artifacts,
    history: [],
    metadata: undefined,
  };
}

describe('the compatibility report', () => {
  const findings = analyseManifest(manifest, 24);
  const chunks = reportChunks({ manifest, targetNode: 24, findings });

  it('is three markdown chunks, the last one carrying the JSON findings', () => {
    expect(chunks.map((parts) => parts.map((p) => p.mediaType))).toEqual([
      ['text/markdown'],
      ['text/markdown'],
      ['text/markdown', 'application/json'],
    ]);
    const text = chunks
      .flat()
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    expect(text).toContain('# Compatibility report: payment-service 1.4.0 on Node.js 24');
    expect(text).toContain('| node-sass | ^7.0.3 | sass ^1.77.0 | high |');
    expect(text).toContain('- High risk: 1 (node-sass)');
    const data = chunks[2]?.[1]?.content;
    expect(data?.$case === 'data' ? data.value : undefined).toEqual({ targetNode: 24, findings });
  });

  it('can be read back from the stored task, whose parts hold all chunks', () => {
    const task = taskWith([
      {
        artifactId: REPORT_ARTIFACT_ID,
        name: '',
        description: '',
        parts: chunks.flat(),
        metadata: undefined,
        extensions: [],
      },
    ]);
    expect(findingsFromTask(task)).toEqual({ targetNode: 24, findings });
    expect(findingsFromTask(taskWith([]))).toBeUndefined();
  });

  it('lists sorted suggestions as a numbered list plus { findings }', () => {
    const [markdown, data] = sortedSuggestionParts(findings, 24);
    expect(markdown?.content?.$case === 'text' ? markdown.content.value : '').toContain(
      '1. **node-sass** (high): ^7.0.3 → sass ^1.77.0.',
    );
    expect(data?.content?.$case === 'data' ? data.content.value : undefined).toEqual({ findings });
  });
});
