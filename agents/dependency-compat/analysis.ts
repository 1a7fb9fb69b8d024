import { minVersion, rangeAdmitsMajor } from '../shared/version-range.js';
import type { Manifest } from '../shared/manifest.js';
import { COMPATIBILITY_RULES, type CompatibilityRule } from './rules.js';

export type Risk = 'high' | 'medium' | 'low';

/** One dependency that needs attention before the runtime upgrade. */
export interface Finding {
  name: string;
  /** The range declared in the manifest. */
  current: string;
  suggested: string;
  risk: Risk;
  reason: string;
}

export const RISKS: readonly Risk[] = ['high', 'medium', 'low'];

const RULES_BY_PACKAGE = new Map<string, CompatibilityRule>(
  COMPATIBILITY_RULES.map((rule) => [rule.packageName, rule]),
);

/**
 * The findings for running `manifest` on Node.js `targetNode`, in manifest order (dependencies,
 * then devDependencies, then the `engines.node` field). Pure and deterministic.
 */
export function analyseManifest(manifest: Manifest, targetNode: number): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const [name, range] of [
    ...Object.entries(manifest.dependencies),
    ...Object.entries(manifest.devDependencies ?? {}),
  ]) {
    if (seen.has(name)) continue;
    seen.add(name);
    const verdict = RULES_BY_PACKAGE.get(name)?.check({ name, range, version: minVersion(range), targetNode });
    if (verdict) findings.push({ name, current: range, ...verdict });
  }
  const engine = manifest.engines?.node;
  if (engine !== undefined && !rangeAdmitsMajor(engine, targetNode)) {
    findings.push({
      name: 'engines.node',
      current: engine,
      suggested: `>=${targetNode}`,
      risk: 'low',
      reason: `the manifest's engines field excludes Node.js ${targetNode}; npm warns (and refuses with engine-strict) until it is widened.`,
    });
  }
  return findings;
}

/** A copy of `findings` ordered high → medium → low, then by name. */
export function sortFindingsByRisk(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) => RISKS.indexOf(a.risk) - RISKS.indexOf(b.risk) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

export function countByRisk(findings: readonly Finding[]): Record<Risk, number> {
  const counts: Record<Risk, number> = { high: 0, medium: 0, low: 0 };
  for (const finding of findings) counts[finding.risk]++;
  return counts;
}
