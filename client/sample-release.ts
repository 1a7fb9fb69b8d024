import { SAMPLE_MANIFEST } from '../agents/index.js';
import type { ReleaseInput } from '../contract/index.js';

/** The reference release: payment-service 1.4.0 → 2.0.0 with the bundled manifest and the sample agents' names. */
export function sampleReleaseInput(overrides: Partial<ReleaseInput> = {}): ReleaseInput {
  return {
    service: 'payment-service',
    fromVersion: '1.4.0',
    toVersion: '2.0.0',
    manifest: SAMPLE_MANIFEST as Record<string, unknown>,
    compat: { agent: 'compat' },
    checks: [
      { label: 'changelog', agent: 'changelog' },
      { label: 'license', agent: 'license' },
    ],
    ...overrides,
  };
}
