import { describe, expect, it } from 'vitest';
import { checkLicenses } from '../../../../agents/license-checker/license-check.js';

describe('checkLicenses', () => {
  it('flags copyleft licenses, ranges that admit a compromised release, and unknown packages', () => {
    const report = checkLicenses({
      dependencies: { express: '^4.18.2', hyperformula: '^2.6.2', 'ua-parser-js': '^0.7.28', 'in-house-lib': '1.0.0' },
      devDependencies: { 'event-stream': '3.3.6' },
    });
    expect(report.findings.map((f) => [f.name, f.risk])).toEqual([
      ['event-stream', 'high'],
      ['hyperformula', 'high'],
      ['in-house-lib', 'low'],
      ['ua-parser-js', 'high'],
    ]);
    expect(report.findings.find((f) => f.name === 'ua-parser-js')?.reason).toContain('ua-parser-js@0.7.29');
    expect(report.packages.find((p) => p.name === 'express')).toEqual({
      name: 'express',
      range: '^4.18.2',
      license: 'MIT',
    });
  });

  it('does not flag a range that excludes the compromised releases', () => {
    expect(checkLicenses({ dependencies: { 'event-stream': '4.0.1', colors: '1.4.0' } }).findings).toEqual([]);
  });
});
