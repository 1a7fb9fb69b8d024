import { describe, expect, it } from 'vitest';
import {
  formatVersion,
  minVersion,
  parseVersion,
  rangeAdmitsMajor,
  rangeIncludes,
} from '../../../../agents/shared/version-range.js';

const v = (text: string) => {
  const parsed = parseVersion(text);
  if (!parsed) throw new Error(`bad version ${text}`);
  return parsed;
};

describe('version ranges', () => {
  it.each([
    ['^7.0.3', '7.0.3'],
    ['~5.0.1', '5.0.1'],
    ['4.x', '4.0.0'],
    ['>=3.0.0 <4', '3.0.0'],
    ['1.2.3 - 2.0.0', '1.2.3'],
    ['^2.0.0 || ^1.5.0', '1.5.0'],
    ['v3.3.6', '3.3.6'],
    ['*', '0.0.0'],
  ])('reads the lowest version of %s as %s', (range, expected) => {
    const min = minVersion(range);
    expect(min && formatVersion(min)).toBe(expected);
  });

  it.each(['latest', 'github:org/repo', 'file:../lib', 'workspace:*'])(
    'does not read %s as a version range',
    (range) => {
      expect(minVersion(range)).toBeUndefined();
    },
  );

  it('applies caret, tilde and comparator semantics', () => {
    expect(rangeIncludes('^3.3.4', v('3.3.6'))).toBe(true);
    expect(rangeIncludes('^3.3.4', v('4.0.0'))).toBe(false);
    expect(rangeIncludes('^0.31.3', v('0.32.0'))).toBe(false);
    expect(rangeIncludes('~1.2.3', v('1.2.9'))).toBe(true);
    expect(rangeIncludes('~1.2.3', v('1.3.0'))).toBe(false);
    expect(rangeIncludes('3.3.6', v('3.3.6'))).toBe(true);
    expect(rangeIncludes('>=1.0.0 <=1.4.2', v('1.4.2'))).toBe(true);
    expect(rangeIncludes('>1.4.2', v('1.4.2'))).toBe(false);
  });

  it('tells whether an engines range admits a Node.js major', () => {
    expect(rangeAdmitsMajor('>=18 <21', 20)).toBe(true);
    expect(rangeAdmitsMajor('>=18 <21', 24)).toBe(false);
    expect(rangeAdmitsMajor('>=18', 24)).toBe(true);
    expect(rangeAdmitsMajor('^20.10.0', 20)).toBe(true);
    expect(rangeAdmitsMajor('>= 22', 20)).toBe(false);
    expect(rangeAdmitsMajor('18 || 20', 20)).toBe(true);
  });
});

describe('version ranges, as npm reads them', () => {
  it('does not take a prerelease for a release range', () => {
    expect(rangeIncludes('>=1.0.0', v('2.0.0-rc.1'))).toBe(false);
    expect(rangeIncludes('>=2.0.0-rc.0', v('2.0.0-rc.1'))).toBe(true);
  });

  it('reads an impossible range as admitting nothing', () => {
    expect(minVersion('>=1 <1')).toBeUndefined();
    expect(rangeAdmitsMajor('>=1 <1', 1)).toBe(false);
  });
});
