import { describe, expect, it } from 'vitest';
import {
  analyseManifest,
  countByRisk,
  sortFindingsByRisk,
  type Finding,
} from '../../../../agents/dependency-compat/analysis.js';
import { SAMPLE_MANIFEST } from '../../../../agents/dependency-compat/sample-manifest.js';
import { parseManifest, type Manifest } from '../../../../agents/shared/manifest.js';

function sampleManifest(): Manifest {
  const parsed = parseManifest(SAMPLE_MANIFEST);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.manifest;
}

const verdicts = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.name, f.risk]));

describe('analyseManifest', () => {
  it('rates the sample manifest for Node.js 24 with findings of every risk level, in manifest order', () => {
    const findings = analyseManifest(sampleManifest(), 24);
    expect(findings.map((f) => f.name)).toEqual([
      'bcrypt',
      'express',
      'node-fetch',
      'node-sass',
      'request',
      'sharp',
      'sqlite3',
      '@types/node',
      'jest',
      'engines.node',
    ]);
    expect(verdicts(findings)).toEqual({
      bcrypt: 'medium',
      express: 'low',
      'node-fetch': 'low',
      'node-sass': 'high',
      request: 'medium',
      sharp: 'high',
      sqlite3: 'high',
      '@types/node': 'low',
      jest: 'medium',
      'engines.node': 'low',
    });
    expect(countByRisk(findings)).toEqual({ high: 3, medium: 3, low: 4 });
    expect(findings.find((f) => f.name === 'node-sass')).toMatchObject({
      current: '^7.0.3',
      suggested: 'sass ^1.77.0',
    });
    expect(findings.find((f) => f.name === 'engines.node')).toMatchObject({ current: '>=18 <21', suggested: '>=24' });
  });

  it('changes its verdicts with the target Node.js major', () => {
    const node20 = verdicts(analyseManifest(sampleManifest(), 20));
    expect(node20).toMatchObject({ 'node-sass': 'high', sharp: 'medium', sqlite3: 'medium', '@types/node': 'low' });
    expect(node20).not.toHaveProperty('engines.node');

    const node18 = verdicts(analyseManifest(sampleManifest(), 18));
    expect(node18).not.toHaveProperty('@types/node');
    expect(node18).toMatchObject({ 'node-sass': 'high', sharp: 'medium' });
  });

  it('reports nothing for packages that are fine on the target', () => {
    const manifest: Manifest = {
      dependencies: {
        lodash: '^4.17.21',
        express: '^5.1.0',
        sharp: '^0.33.5',
        bcrypt: '^5.1.1',
        'node-sass': '^9.0.0',
      },
      devDependencies: { jest: '^30.0.0', '@types/node': '^24.0.0' },
      engines: { node: '>=20' },
    };
    expect(analyseManifest(manifest, 24).map((f) => f.name)).toEqual(['node-sass']);
    expect(analyseManifest(manifest, 20)).toEqual([expect.objectContaining({ name: 'node-sass', risk: 'low' })]);
  });

  it('is deterministic', () => {
    expect(analyseManifest(sampleManifest(), 24)).toEqual(analyseManifest(sampleManifest(), 24));
  });

  it('counts a package listed twice once, with its runtime range', () => {
    const findings = analyseManifest({ dependencies: { jest: '^27.0.0' }, devDependencies: { jest: '^29.0.0' } }, 24);
    expect(findings).toEqual([expect.objectContaining({ name: 'jest', current: '^27.0.0', risk: 'medium' })]);
  });
});

describe('sortFindingsByRisk', () => {
  it('orders high, medium, low, then by name, without touching its input', () => {
    const findings = analyseManifest(sampleManifest(), 24);
    const before = [...findings];
    const sorted = sortFindingsByRisk(findings);
    expect(sorted.map((f) => `${f.risk} ${f.name}`)).toEqual([
      'high node-sass',
      'high sharp',
      'high sqlite3',
      'medium bcrypt',
      'medium jest',
      'medium request',
      'low @types/node',
      'low engines.node',
      'low express',
      'low node-fetch',
    ]);
    expect(findings).toEqual(before);
  });
});
