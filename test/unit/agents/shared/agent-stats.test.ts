import { describe, expect, it } from 'vitest';
import { normalizeRoutePath } from '../../../../agents/shared/agent-stats.js';

describe('normalizeRoutePath', () => {
  it.each([
    ['/a2a/jsonrpc', '/a2a/jsonrpc'],
    ['/a2a/rest/message:send', '/a2a/rest/message:send'],
    ['/a2a/rest/tasks', '/a2a/rest/tasks'],
    ['/a2a/rest/tasks/4f0c-9e?historyLength=2', '/a2a/rest/tasks/:id'],
    ['/a2a/rest/tasks/4f0c-9e:cancel', '/a2a/rest/tasks/:id:cancel'],
    ['/a2a/rest/tasks/4f0c-9e:subscribe', '/a2a/rest/tasks/:id:subscribe'],
    ['/a2a/rest/tasks/T1/pushNotificationConfigs', '/a2a/rest/tasks/:id/pushNotificationConfigs'],
    ['/a2a/rest/tasks/T1/pushNotificationConfigs/cfg-2', '/a2a/rest/tasks/:id/pushNotificationConfigs/:configId'],
    ['/a2a/rest/v1/tasks/T1', '/a2a/rest/v1/tasks/:id'],
    ['/.well-known/agent-card.json', '/.well-known/agent-card.json'],
    ['/a2a/jsonrpc/', '/a2a/jsonrpc'],
  ])('normalises %s to %s', (path, expected) => {
    expect(normalizeRoutePath(path)).toBe(expected);
  });
});
