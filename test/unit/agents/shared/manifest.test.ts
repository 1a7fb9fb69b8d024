import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../../agents/shared/manifest.js';

describe('parseManifest', () => {
  it('reads a package.json-like object', () => {
    const result = parseManifest({
      name: 'payment-service',
      version: '1.4.0',
      dependencies: { express: '^4.18.2' },
      engines: { node: '>=18' },
    });
    expect(result).toEqual({
      ok: true,
      manifest: {
        name: 'payment-service',
        version: '1.4.0',
        dependencies: { express: '^4.18.2' },
        engines: { node: '>=18' },
      },
    });
  });

  it('accepts a { manifest } wrapper', () => {
    expect(parseManifest({ manifest: { dependencies: {} } })).toEqual({ ok: true, manifest: { dependencies: {} } });
  });

  it.each([
    [undefined, 'the request has no dependency manifest'],
    ['package.json', 'the request has no dependency manifest'],
    [{ name: 'payment-service' }, 'the manifest has no "dependencies" object'],
    [{ dependencies: ['express'] }, '"dependencies" must be an object'],
    [{ dependencies: { express: 4 } }, '"dependencies.express" must be a version range string'],
    [{ dependencies: {}, devDependencies: { jest: null } }, '"devDependencies.jest" must be a version range string'],
  ])('says what is missing in %j', (value, problem) => {
    const result = parseManifest(value);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.problem).toContain(problem);
  });
});
