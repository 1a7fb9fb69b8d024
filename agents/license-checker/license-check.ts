import type { Part } from '@a2a-js/sdk';
import type { Manifest } from '../shared/manifest.js';
import { dataPart, textPart } from '../shared/parts.js';
import { parseVersion, rangeIncludes } from '../shared/version-range.js';
import { COMPROMISED_RELEASES, LICENSES } from './license-catalogue.js';

export interface PackageLicense {
  name: string;
  range: string;
  /** SPDX id, or `unknown` when the catalogue does not list the package. */
  license: string;
}

export interface LicenseFinding {
  name: string;
  range: string;
  license: string;
  risk: 'high' | 'medium' | 'low';
  reason: string;
}

export interface LicenseReport {
  packages: PackageLicense[];
  findings: LicenseFinding[];
}

/** Checks every dependency (runtime and development) against the catalogue. Pure and deterministic. */
export function checkLicenses(manifest: Manifest): LicenseReport {
  const packages: PackageLicense[] = [];
  const findings: LicenseFinding[] = [];
  const entries = new Map([
    ...Object.entries(manifest.devDependencies ?? {}),
    ...Object.entries(manifest.dependencies),
  ]);
  for (const [name, range] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const license = LICENSES[name] ?? 'unknown';
    packages.push({ name, range, license });
    const compromised = compromisedVersion(name, range);
    if (compromised) {
      const reason = `the range admits ${name}@${compromised.version}, which ${compromised.incident}`;
      findings.push({ name, range, license, risk: 'high', reason });
    }
    if (/^(A?GPL)-/i.test(license)) {
      findings.push({
        name,
        range,
        license,
        risk: 'high',
        reason: `${license} is a strong copyleft license; distributing the service would require releasing its source`,
      });
    } else if (/^LGPL-/i.test(license)) {
      findings.push({
        name,
        range,
        license,
        risk: 'medium',
        reason: `${license} is a weak copyleft license; keep the library replaceable and review how it is linked`,
      });
    } else if (license === 'unknown') {
      findings.push({
        name,
        range,
        license,
        risk: 'low',
        reason: 'not in the local license catalogue; verify the license manually',
      });
    }
  }
  return { packages, findings };
}

/** The report as one markdown part (license table plus findings) and one JSON part `{ findings, packages }`. */
export function licenseReportParts(service: string, report: LicenseReport): Part[] {
  const table =
    '| Package | Range | License |\n| --- | --- | --- |\n' +
    report.packages.map((p) => `| ${p.name} | ${p.range} | ${p.license} |\n`).join('');
  const findings =
    report.findings.length === 0
      ? 'No license or supply-chain issue found.\n'
      : report.findings.map((f) => `- **${f.name}** ${f.range} (${f.risk}): ${f.reason}.\n`).join('');
  const markdown = `# License and security check: ${service}\n\n## Licenses\n\n${table}\n## Findings\n\n${findings}`;
  return [textPart(markdown, 'text/markdown'), dataPart({ findings: report.findings, packages: report.packages })];
}

function compromisedVersion(name: string, range: string): { version: string; incident: string } | undefined {
  for (const release of COMPROMISED_RELEASES.filter((r) => r.packageName === name)) {
    const version = release.versions.find((v) => {
      const parsed = parseVersion(v);
      return parsed !== undefined && rangeIncludes(range, parsed);
    });
    if (version) return { version, incident: release.incident };
  }
  return undefined;
}

/** A CycloneDX 1.6 SBOM of the manifest's dependencies, with the licenses found (SPDX ids). */
export function cycloneDxSbom(service: string, report: LicenseReport): Record<string, unknown> {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: { component: { type: 'application', name: service } },
    components: report.packages.map((p) => ({
      type: 'library',
      name: p.name,
      version: p.range,
      ...(p.license === 'unknown' ? {} : { licenses: [{ license: { id: p.license } }] }),
    })),
  };
}
