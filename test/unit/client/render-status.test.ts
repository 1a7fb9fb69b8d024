import { describe, expect, it } from 'vitest';
import { renderStatus } from '../../../client/render-status.js';
import type { StatusView } from '../../../client/status-view.js';

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
});
