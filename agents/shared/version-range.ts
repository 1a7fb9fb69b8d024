/**
 * npm version ranges for the sample agents' rule tables, on `semver` (npm's own implementation:
 * caret, tilde, x-ranges, hyphen ranges, `||`, and npm's prerelease rules — `2.0.0-rc.1` does not
 * satisfy `>=1.0.0`, and the impossible `>=1 <1` admits nothing).
 */
import semver, { type SemVer } from 'semver';

export type Version = SemVer;

/** Reads `1.2.3`, `v1.2.3`, `1.2.3-beta.1`, and partial versions such as `1` or `1.2` (as `1.0.0`, `1.2.0`). */
export function parseVersion(text: string): Version | undefined {
  return semver.parse(text.trim()) ?? semver.coerce(text) ?? undefined;
}

export function compareVersions(a: Version, b: Version): number {
  return semver.compare(a, b);
}

export function formatVersion(version: Version): string {
  return version.version;
}

/**
 * The lowest version a range admits; undefined when it admits none, or is not a version range
 * (`github:…`, `file:…`, `latest`).
 */
export function minVersion(range: string): Version | undefined {
  if (!semver.validRange(range)) return undefined;
  return semver.minVersion(range) ?? undefined;
}

/** Whether `version` satisfies `range`; false for ranges that are not version ranges. */
export function rangeIncludes(range: string, version: Version): boolean {
  return semver.validRange(range) !== null && semver.satisfies(version, range);
}

/** Whether some release of the given major version satisfies `range` (used for `engines.node`). */
export function rangeAdmitsMajor(range: string, major: number): boolean {
  return semver.validRange(range) !== null && semver.intersects(range, `>=${major}.0.0 <${major + 1}.0.0-0`);
}
