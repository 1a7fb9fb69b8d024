import { describe, expect, it } from 'vitest';
import { renderStatus } from '../../../client/render-status.js';
import { artifactView, type StatusView } from '../../../client/status-view.js';
import { ARTIFACT_REF_KEY, PENDING_FILE_KEY } from '../../../contract/index.js';
import { buildReleaseReport } from '../../../workflows/release/release-report.js';

const sha = 'ab'.repeat(32);
const ref = {
  name: 'sbom.cdx.json',
  mediaType: 'application/vnd.cyclonedx+json',
  size: 5_300,
  sha256: sha,
  key: `sha256:${sha}`,
};

const delegation = (binding?: 'GRPC' | 'HTTP+JSON', mode?: 'stream' | 'poll') => ({
  workflowId: 'delegate-1',
  agent: 'inventory',
  status: 'RUNNING' as const,
  phase: 'working' as const,
  ...(binding ? { binding } : {}),
  ...(mode ? { mode } : {}),
  taskId: 'T1',
  state: 'TASK_STATE_WORKING' as const,
  artifacts: [],
});

function view(delegations: StatusView['delegations']): StatusView {
  return {
    workflowId: 'delegate-1',
    kind: 'delegation',
    status: 'RUNNING',
    phase: 'working',
    questions: [],
    delegations,
  };
}

describe('renderStatus', () => {
  it('shows the binding and mode each delegation speaks, and a dash before the agent is resolved', () => {
    const text = renderStatus(view([delegation('GRPC', 'stream'), { ...delegation(), workflowId: 'delegate-2' }]));
    const rows = text.split('\n').filter((line) => line.includes('inventory'));
    expect(rows[1]).toMatch(/inventory\s+working\s+GRPC · stream\s+TASK_STATE_WORKING\s+task T1/);
    expect(rows[2]).toMatch(/inventory\s+working\s+-\s+TASK_STATE_WORKING/);
  });

  it('shows a file by name, type and size (so far, while it arrives), never its bytes', () => {
    const stored = artifactView({ artifactId: 'sbom', parts: [{ text: '', metadata: { [ARTIFACT_REF_KEY]: ref } }] });
    const arriving = artifactView({
      artifactId: 'build',
      name: 'Build',
      parts: [
        {
          text: '',
          metadata: { [PENDING_FILE_KEY]: { name: 'app.tar', mediaType: 'application/x-tar', size: 3 * 1024 * 1024 } },
        },
      ],
    });
    const text = renderStatus(view([{ ...delegation(), artifacts: [stored, arriving] }]));
    expect(text).toContain('inventory · sbom (sbom.cdx.json, application/vnd.cyclonedx+json, 5.2 KiB)');
    expect(text).toContain('inventory · Build (app.tar, application/x-tar, 3.0 MiB so far)');
  });

  it('says "cancel requested" for a canceled delegation whose agent still reports its task at work', () => {
    const canceled = { ...delegation(), status: 'CANCELLED' as const, phase: 'canceled' as const };
    const wide = { style: { width: 160, color: false } };
    const working = renderStatus(view([{ ...canceled, remoteCancel: 'TASK_STATE_WORKING' }]), wide);
    expect(working).toMatch(/inventory\s+cancel requested; the agent reported working\s+-\s+TASK_STATE_WORKING/);
    const done = renderStatus(view([{ ...canceled, state: 'TASK_STATE_CANCELED' }]), wide);
    expect(done).toMatch(/inventory\s+canceled\s+-\s+TASK_STATE_CANCELED/);
  });
});

describe('the release report', () => {
  it('links each stored file of its delegations, by name, agent, type, size and hash', () => {
    const result = {
      agent: 'license',
      kind: 'task',
      artifacts: [{ artifactId: 'sbom', parts: [{ text: '', metadata: { [ARTIFACT_REF_KEY]: ref } }] }],
    };
    const report = buildReleaseReport(
      { service: 'payment-service', fromVersion: '1.4.0', toVersion: '2.0.0' },
      { label: 'compat', agent: 'compat', workflowId: 'd-1', failure: { message: 'down' } },
      undefined,
      [{ label: 'license', agent: 'license', workflowId: 'd-2', result: result as never }],
    );
    expect(report.files).toEqual([{ label: 'license', workflowId: 'd-2', ref }]);
    expect(report.markdown).toContain(
      `| [sbom.cdx.json](blobs/sha256:${sha}?name=sbom.cdx.json&type=application%2Fvnd.cyclonedx%2Bjson) | license | application/vnd.cyclonedx+json | 5.2 KiB | \`${sha.slice(0, 12)}\` |`,
    );
  });
});
