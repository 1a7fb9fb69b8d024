import { Role } from '@a2a-js/sdk';
import { looksLikeManifest, parseManifest } from '../shared/manifest.js';
import { dataOf, filePart } from '../shared/parts.js';
import { SampleAgentExecutor } from '../shared/sample-executor.js';
import type { DelayDefaults } from '../shared/scenario.js';
import type { TaskTurn } from '../shared/task-turn.js';
import { checkLicenses, cycloneDxSbom, licenseReportParts } from './license-check.js';

export const LICENSE_ARTIFACT_ID = 'license-report';
/** The dependencies as a CycloneDX SBOM file, `sbom.cdx.json`. */
export const SBOM_ARTIFACT_ID = 'sbom';

export function createLicenseExecutor(defaults: DelayDefaults): SampleAgentExecutor {
  return new SampleAgentExecutor(checkManifestLicenses, defaults);
}

/** Checks the latest manifest data part and returns the findings as one artifact. */
export async function checkManifestLicenses(turn: TaskTurn): Promise<void> {
  const data = turn.conversation.filter((m) => m.role === Role.ROLE_USER).flatMap(dataOf);
  const parsed = parseManifest(data.filter(looksLikeManifest).at(-1) ?? data.at(-1));
  if (!parsed.ok) {
    const example = '{"name":"payment-service","dependencies":{"express":"^4.18.2"}}';
    turn.fail(`Cannot check licenses: ${parsed.problem}. Send a data part such as ${example}.`);
    return;
  }
  const service = parsed.manifest.name ?? 'the service';
  turn.working(`Checking the licenses and known-compromised releases of ${service}'s dependencies.`);
  if (!(await turn.delay(turn.settings.workDelayMs))) return;
  const report = checkLicenses(parsed.manifest);
  const sbom = JSON.stringify(cycloneDxSbom(service, report), null, 2);
  const streamed =
    (await turn.streamArtifact({
      artifactId: LICENSE_ARTIFACT_ID,
      name: 'License and security report',
      description: `Licenses and supply-chain findings for ${service}`,
      chunks: [licenseReportParts(service, report)],
    })) &&
    (await turn.streamArtifact({
      artifactId: SBOM_ARTIFACT_ID,
      name: 'sbom.cdx.json',
      description: `The dependencies of ${service} (CycloneDX 1.6)`,
      chunks: [[filePart(Buffer.from(sbom), 'sbom.cdx.json', 'application/vnd.cyclonedx+json')]],
    }));
  if (streamed)
    turn.complete(`Checked ${report.packages.length} packages of ${service}: ${report.findings.length} findings.`);
}
