import { describe, expect, it } from 'vitest';
import type { ResolvedAgent } from '../../../contract/delegation-types.js';
import { FailureType } from '../../../contract/failure-types.js';
import { pushUnavailable } from '../../../contract/push-availability.js';

describe('an explicit push', () => {
  const resolved = (pushNotifications: boolean, autoMode: ResolvedAgent['autoMode']) =>
    ({ name: 'compat', autoMode, card: { capabilities: { pushNotifications } } }) as unknown as ResolvedAgent;

  it('is refused for an agent that cannot push, and for a worker without a receiver', () => {
    expect(pushUnavailable(resolved(false, 'stream'), 'compat')).toMatchObject({
      type: FailureType.pushUnavailable,
      nonRetryable: true,
      message: expect.stringMatching(/^Agent "compat" does not declare push/),
    });
    expect(pushUnavailable(resolved(true, 'stream'), 'compat')?.message).toMatch(
      /no webhook receiver configured.*A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET/,
    );
    expect(pushUnavailable(resolved(true, 'push'), 'compat')).toBeUndefined();
  });
});
