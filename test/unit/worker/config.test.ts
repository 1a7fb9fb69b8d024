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
