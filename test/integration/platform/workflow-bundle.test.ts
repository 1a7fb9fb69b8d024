/**
 * A bundle built from sources (tsx, the tests, the bench) compiles our TypeScript as tsc compiles
 * `dist/` (ES2022), not to the SDK's default es2017, whose helper calls for every object spread
 * and class field would make the workflows run slower here than where users run them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { temporalServer } from '../../helpers/temporal.js';

describe('workflow bundle', () => {
  it('keeps object spreads and class fields native (ES2022, as dist/ is compiled)', () => {
    const code = readFileSync(temporalServer().workflowBundlePath, 'utf8');
    expect(code).toContain('class DelegationPublisher');
    expect(code).not.toMatch(/\b_object_spread(_props)?\(/);
    expect(code).not.toMatch(/\b_define_property\(/);
  });
});
