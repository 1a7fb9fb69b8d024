import { isObject } from './parts.js';

/** The parts of a package.json the sample agents read. */
export interface Manifest {
  name?: string;
  version?: string;
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

export type ManifestResult = { ok: true; manifest: Manifest } | { ok: false; problem: string };

/**
 * Checks that `value` is a package.json-like object (a `{ manifest: {...} }` wrapper is accepted
 * too). The problem text says what is missing, for the agent's FAILED message.
 */
export function parseManifest(value: unknown): ManifestResult {
  const candidate = isObject(value) && isObject(value.manifest) ? value.manifest : value;
  if (!isObject(candidate)) {
    return {
      ok: false,
      problem: 'the request has no dependency manifest (a data part holding a package.json-like object)',
    };
  }
  const dependencies = stringMap(candidate.dependencies, 'dependencies');
  if (!dependencies.ok) return dependencies;
  const manifest: Manifest = { dependencies: dependencies.map };
  if (candidate.devDependencies !== undefined) {
    const dev = stringMap(candidate.devDependencies, 'devDependencies');
    if (!dev.ok) return dev;
    manifest.devDependencies = dev.map;
  }
  if (candidate.engines !== undefined) {
    const engines = stringMap(candidate.engines, 'engines');
    if (!engines.ok) return engines;
    manifest.engines = engines.map;
  }
  if (typeof candidate.name === 'string' && candidate.name.trim() !== '') manifest.name = candidate.name.trim();
  if (typeof candidate.version === 'string' && candidate.version.trim() !== '')
    manifest.version = candidate.version.trim();
  return { ok: true, manifest };
}

/** True when `value` looks like a manifest at all (has a `dependencies` key), valid or not. */
export function looksLikeManifest(value: unknown): boolean {
  const candidate = isObject(value) && isObject(value.manifest) ? value.manifest : value;
  return isObject(candidate) && 'dependencies' in candidate;
}

function stringMap(
  value: unknown,
  field: string,
): { ok: true; map: Record<string, string> } | { ok: false; problem: string } {
  if (value === undefined) {
    return { ok: false, problem: `the manifest has no "${field}" object (package name → version range)` };
  }
  if (!isObject(value)) {
    return {
      ok: false,
      problem: `the manifest's "${field}" must be an object mapping package names to version ranges`,
    };
  }
  const map: Record<string, string> = {};
  for (const [name, range] of Object.entries(value)) {
    if (typeof range !== 'string') {
      return { ok: false, problem: `"${field}.${name}" must be a version range string such as "^1.2.3"` };
    }
    map[name] = range;
  }
  return { ok: true, map };
}
