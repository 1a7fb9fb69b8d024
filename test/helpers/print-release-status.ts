/**
 * Prints what `status` shows for a completed release of payment-service 1.4.0 → 2.0.0 (the
 * demo's: the sample manifest analysed for Node.js 24, two checks, approved) through the
 * command's own output path, on whatever stdout this runs with. Run in a pseudo-terminal by
 * report-screen.test.ts. Argument: the format (text, markdown, json).
 */
import { analyseManifest, sortFindingsByRisk } from '../../agents/dependency-compat/analysis.js';
import { parseManifest } from '../../agents/shared/manifest.js';
import { SAMPLE_MANIFEST } from '../../agents/dependency-compat/sample-manifest.js';
import { statusOutput } from '../../client/render-status.js';
import { outputFormat } from '../../client/output-format.js';
import type { StatusView } from '../../client/status-view.js';
import type { DelegateResult } from '../../contract/delegation-types.js';
import { buildReleaseReport } from '../../workflows/release/release-report.js';

const parsed = parseManifest(SAMPLE_MANIFEST);
if (!parsed.ok) throw new Error(parsed.problem);
const findings = sortFindingsByRisk(analyseManifest(parsed.manifest, 24));

const result = (agent: string, said: string, data?: unknown): DelegateResult =>
  ({
    agent,
    kind: 'task',
    contextId: 'ctx-1',
    taskId: `task-${agent}`,
    state: 'TASK_STATE_COMPLETED',
    task: { status: { message: { parts: [{ text: said }] } } },
    artifacts: data === undefined ? [] : [{ artifactId: 'report', parts: [{ data }] }],
    rounds: 0,
  }) as unknown as DelegateResult;

const report = buildReleaseReport(
  { service: 'payment-service', fromVersion: '1.4.0', toVersion: '2.0.0' },
  {
    label: 'compat',
    agent: 'compat',
    workflowId: 'delegate-compat',
    result: result('compat', '', { targetNode: 24, findings }),
  },
  {
    label: 'compat-sorted',
    agent: 'compat',
    workflowId: 'delegate-compat-sorted',
    result: result('compat', '', { findings }),
  },
  [
    {
      label: 'changelog',
      agent: 'changelog',
      workflowId: 'delegate-changelog',
      result: result('changelog', 'The changelog for payment-service 2.0.0 is ready.'),
    },
    {
      label: 'license',
      agent: 'license',
      workflowId: 'delegate-license',
      result: result('license', 'Checked 15 packages of payment-service: 2 findings.'),
    },
  ],
);

const delegation = (label: string, agent: string): StatusView['delegations'][number] => ({
  workflowId: `delegate-${label}`,
  label,
  agent,
  status: 'COMPLETED',
  phase: 'completed',
  binding: 'HTTP+JSON',
  mode: 'stream',
  taskId: `task-${label}`,
  state: 'TASK_STATE_COMPLETED',
  artifacts: [],
});

const view: StatusView = {
  workflowId: 'release-payment-service-2.0.0-0a1b2c3d',
  kind: 'release',
  status: 'COMPLETED',
  phase: 'approved',
  uiUrl: 'http://127.0.0.1:8233/namespaces/default/workflows/release-payment-service-2.0.0-0a1b2c3d',
  service: 'payment-service',
  fromVersion: '1.4.0',
  toVersion: '2.0.0',
  questions: [],
  delegations: [
    delegation('compat', 'compat'),
    delegation('changelog', 'changelog'),
    delegation('license', 'license'),
    delegation('compat-sorted', 'compat'),
  ],
  report,
  decision: { outcome: 'approved', by: 'dana', reason: 'approved with --approve', at: '2026-12-02T00:00:00.000Z' },
  outcome: 'approved',
};

console.log(statusOutput(view, outputFormat({ format: process.argv[2] })));
