import { describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../../worker/config.js';

describe('loadWorkerConfig limits', () => {
  it('reads each A2A_MAX_* cap, leaving the others to their defaults', () => {
    const config = loadWorkerConfig({ A2A_MAX_BODY_BYTES: '1048576', A2A_MAX_JSON_DEPTH: '32' });
    expect(config.limits).toEqual({ maxBodyBytes: 1_048_576, maxJsonDepth: 32 });
    expect(loadWorkerConfig({}).limits).toEqual({});
  });

  it('refuses a cap that is not a positive integer, naming the variable', () => {
    expect(() => loadWorkerConfig({ A2A_MAX_SSE_LINE_BYTES: 'lots' })).toThrow(
      'Environment variable A2A_MAX_SSE_LINE_BYTES is invalid',
    );
    expect(() => loadWorkerConfig({ A2A_MAX_ARTIFACTS_PER_TASK: '0' })).toThrow('A2A_MAX_ARTIFACTS_PER_TASK');
  });
});

describe('loadWorkerConfig agents named by URL', () => {
  it('allows them on public addresses by default, and reads both switches', () => {
    expect(loadWorkerConfig({}).agentUrls).toEqual({ agentsByUrl: true, allowPrivate: false });
    expect(loadWorkerConfig({ A2A_AGENTS_BY_URL: 'false', A2A_ALLOW_PRIVATE_AGENT_URLS: 'true' }).agentUrls).toEqual({
      agentsByUrl: false,
      allowPrivate: true,
    });
    expect(() => loadWorkerConfig({ A2A_AGENTS_BY_URL: 'maybe' })).toThrow(
      'Environment variable A2A_AGENTS_BY_URL is invalid: must be true or false.',
    );
  });
});
