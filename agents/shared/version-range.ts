/**
 * A deliberately small reading of npm version ranges: enough for the sample agents' rule tables
 * (caret, tilde, x-ranges, comparators, hyphen ranges, `||`). Prerelease tags are ignored.
 */

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

/** A half-open interval `[lower, upper)`; `upper` undefined means unbounded. */
interface Interval {
  lower: Version;
  upper: Version | undefined;
}

const ZERO: Version = { major: 0, minor: 0, patch: 0 };

/** Reads `1`, `1.2`, `v1.2.3`, `1.2.3-beta.1` (prerelease dropped). Wildcard parts read as missing. */
export function parseVersion(text: string): Version | undefined {
  const partial = parsePartial(text);
  if (!partial || partial.major === undefined) return undefined;
  return { major: partial.major, minor: partial.minor ?? 0, patch: partial.patch ?? 0 };
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

/** The lowest version a range admits, or undefined when the range is not a version range (`github:…`, `file:…`, `latest`). */
export function minVersion(range: string): Version | undefined {
  const intervals = parseRange(range);
  if (!intervals || intervals.length === 0) return undefined;
  return intervals.map((i) => i.lower).reduce((min, v) => (compareVersions(v, min) < 0 ? v : min));
}

/** Whether `version` satisfies `range`; false for ranges this module cannot read. */
export function rangeIncludes(range: string, version: Version): boolean {
  return (parseRange(range) ?? []).some((interval) => contains(interval, version));
}

/** Whether some release of the given major version satisfies `range` (used for `engines.node`). */
export function rangeAdmitsMajor(range: string, major: number): boolean {
  const wanted: Interval = { lower: { major, minor: 0, patch: 0 }, upper: { major: major + 1, minor: 0, patch: 0 } };
  return (parseRange(range) ?? []).some((interval) => overlaps(interval, wanted));
}

interface PartialVersion {
  major: number | undefined;
  minor: number | undefined;
  patch: number | undefined;
}

function parsePartial(text: string): PartialVersion | undefined {
  const match = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+].*)?$/.exec(text.trim());
  if (!match) return undefined;
  const num = (part: string | undefined) => (part === undefined || /^[xX*]$/.test(part) ? undefined : Number(part));
  const major = num(match[1]);
  const minor = major === undefined ? undefined : num(match[2]);
  const patch = minor === undefined ? undefined : num(match[3]);
  return { major, minor, patch };
}

function parseRange(range: string): Interval[] | undefined {
  const trimmed = range.trim();
  if (trimmed === '' || trimmed === '*' || /^[xX]$/.test(trimmed)) return [{ lower: ZERO, upper: undefined }];
  const intervals: Interval[] = [];
  for (const alternative of trimmed.split('||')) {
    const interval = parseAlternative(alternative.trim());
    if (!interval) return undefined;
    intervals.push(interval);
  }
  return intervals;
}

function parseAlternative(text: string): Interval | undefined {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
  if (hyphen) {
    const from = parsePartial(hyphen[1] ?? '');
    const to = parsePartial(hyphen[2] ?? '');
    if (!from || !to) return undefined;
    return { lower: floor(from), upper: ceiling(to) };
  }
  let result: Interval = { lower: ZERO, upper: undefined };
  // Comparators may be written with a space after the operator (">= 18"); glue them first.
  const comparators = text
    .replace(/(<=|>=|<|>|=|\^|~)\s+/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  if (comparators.length === 0) return undefined;
  for (const comparator of comparators) {
    const interval = parseComparator(comparator);
    if (!interval) return undefined;
    result = intersect(result, interval);
  }
  return result;
}

function parseComparator(text: string): Interval | undefined {
  const match = /^(\^|~>?|>=|<=|>|<|=)?(.+)$/.exec(text);
  if (!match) return undefined;
  const operator = match[1] ?? '';
  const partial = parsePartial(match[2] ?? '');
  if (!partial) return undefined;
  const lower = floor(partial);
  switch (operator) {
    case '^':
      return { lower, upper: caretUpper(partial) };
    case '~':
    case '~>':
      return { lower, upper: partial.minor === undefined ? bump(lower, 'major') : bump(lower, 'minor') };
    case '>=':
      return { lower, upper: undefined };
    case '>':
      return { lower: ceiling(partial) ?? lower, upper: undefined };
    case '<':
      return { lower: ZERO, upper: lower };
    case '<=':
      return { lower: ZERO, upper: ceiling(partial) };
    default:
      return { lower, upper: ceiling(partial) };
  }
}

function floor(partial: PartialVersion): Version {
  return { major: partial.major ?? 0, minor: partial.minor ?? 0, patch: partial.patch ?? 0 };
}

/** The first version above everything the partial version stands for (`1.2` → `1.3.0`, `1.2.3` → `1.2.4`). */
function ceiling(partial: PartialVersion): Version | undefined {
  const base = floor(partial);
  if (partial.major === undefined) return undefined;
  if (partial.minor === undefined) return bump(base, 'major');
  if (partial.patch === undefined) return bump(base, 'minor');
  return bump(base, 'patch');
}

function caretUpper(partial: PartialVersion): Version | undefined {
  const base = floor(partial);
  if (partial.major === undefined) return undefined;
  if (base.major > 0 || partial.minor === undefined) return bump(base, 'major');
  if (base.minor > 0 || partial.patch === undefined) return bump(base, 'minor');
  return bump(base, 'patch');
}

function bump(version: Version, part: keyof Version): Version {
  if (part === 'major') return { major: version.major + 1, minor: 0, patch: 0 };
  if (part === 'minor') return { major: version.major, minor: version.minor + 1, patch: 0 };
  return { ...version, patch: version.patch + 1 };
}

function intersect(a: Interval, b: Interval): Interval {
  const lower = compareVersions(a.lower, b.lower) >= 0 ? a.lower : b.lower;
  let upper = a.upper ?? b.upper;
  if (a.upper !== undefined && b.upper !== undefined && compareVersions(b.upper, a.upper) < 0) upper = b.upper;
  return { lower, upper };
}

function contains(interval: Interval, version: Version): boolean {
  const aboveLower = compareVersions(version, interval.lower) >= 0;
  return aboveLower && (interval.upper === undefined || compareVersions(version, interval.upper) < 0);
}

function overlaps(a: Interval, b: Interval): boolean {
  const both = intersect(a, b);
  return both.upper === undefined || compareVersions(both.lower, both.upper) < 0;
}
