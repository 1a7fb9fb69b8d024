import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_BYTES, withinPayloadLimit } from '../../../activities/payload-limit.js';

describe('withinPayloadLimit', () => {
  it('passes a result that fits through unchanged', () => {
    const result = { artifacts: [{ artifactId: 'a', parts: [{ text: 'short' }] }] };
    expect(withinPayloadLimit(result, 'compat', 'task T1')).toBe(result);
  });

  it('refuses, not retryable, a result too large for Temporal history, naming the limit', () => {
    const huge = { text: 'x'.repeat(MAX_RESULT_BYTES + 1) };
    let error: unknown;
    try {
      withinPayloadLimit(huge, 'compat', 'task T1');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'A2A_RESULT_TOO_LARGE', nonRetryable: true });
    expect((error as Error).message).toMatch(
      /^Agent "compat" returned 1\.5 MB for task T1, more than the 1\.5 MB a Temporal payload may carry here \(Temporal's hard limit is 2 MB\)\./,
    );
  });
});
