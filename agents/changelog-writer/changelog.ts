import type { Part } from '@a2a-js/sdk';
import { isObject, textPart } from '../shared/parts.js';

/** One dependency change to list; compatibility findings (`current`/`suggested`) are accepted as well. */
export interface DependencyChange {
  name: string;
  from: string | undefined;
  to: string;
  note: string | undefined;
}

export interface ChangelogRequest {
  service: string;
  from: string;
  to: string;
  dependencies: DependencyChange[];
}

export type ChangelogRequestResult = { ok: true; request: ChangelogRequest } | { ok: false; problem: string };

/**
 * Reads `{ service, from, to, dependencies? }`. `dependencies` may be a `name → version` map, or a
 * list of `{ name, from?, to }` or of compatibility findings `{ name, current, suggested, reason? }`.
 */
export function parseChangelogRequest(value: unknown): ChangelogRequestResult {
  if (!isObject(value)) return { ok: false, problem: 'the request has no data part with { service, from, to }' };
  for (const field of ['service', 'from', 'to'] as const) {
    if (typeof value[field] !== 'string' || value[field].trim() === '') {
      return { ok: false, problem: `"${field}" is missing (expected a non-empty string)` };
    }
  }
  const dependencies = parseDependencies(value.dependencies);
  if (!dependencies.ok) return dependencies;
  return {
    ok: true,
    request: {
      service: String(value.service),
      from: String(value.from),
      to: String(value.to),
      dependencies: dependencies.list,
    },
  };
}

/** The changelog as three markdown chunks: heading, dependency updates, upgrade notes. */
export function changelogChunks(request: ChangelogRequest): Part[][] {
  const { service, from, to, dependencies } = request;
  const heading = `# ${service} ${to}\n\n_Changes since ${from}._\n\n`;
  const updates =
    '## Dependency updates\n\n' +
    (dependencies.length === 0
      ? '- No dependency changes.\n\n'
      : dependencies
          .map(
            (d) =>
              `- **${d.name}**: ${d.from === undefined ? '' : `${d.from} → `}${d.to}${d.note ? ` (${d.note})` : ''}\n`,
          )
          .join('') + '\n');
  const notes =
    '## Upgrade notes\n\n' +
    `- ${dependencies.length} ${dependencies.length === 1 ? 'dependency' : 'dependencies'} changed between ${from} and ${to}.\n` +
    '- Reinstall from a clean lockfile so native modules are rebuilt for the new runtime.\n' +
    `- Run the full test suite before releasing ${service} ${to}.\n`;
  return [
    [textPart(heading, 'text/markdown')],
    [textPart(updates, 'text/markdown')],
    [textPart(notes, 'text/markdown')],
  ];
}

function parseDependencies(value: unknown): { ok: true; list: DependencyChange[] } | { ok: false; problem: string } {
  if (value === undefined) return { ok: true, list: [] };
  if (isObject(value)) {
    const list: DependencyChange[] = [];
    for (const [name, to] of Object.entries(value)) {
      if (typeof to !== 'string') return { ok: false, problem: `"dependencies.${name}" must be a version string` };
      list.push({ name, from: undefined, to, note: undefined });
    }
    return { ok: true, list };
  }
  if (!Array.isArray(value)) return { ok: false, problem: '"dependencies" must be a list or a name → version map' };
  const list: DependencyChange[] = [];
  for (const [index, entry] of value.entries()) {
    const to: unknown = isObject(entry) ? (entry.to ?? entry.suggested) : undefined;
    if (!isObject(entry) || typeof entry.name !== 'string' || typeof to !== 'string') {
      return { ok: false, problem: `"dependencies[${index}]" needs a "name" and a "to" (or "suggested") string` };
    }
    const from: unknown = entry.from ?? entry.current;
    const note: unknown = entry.note ?? entry.reason;
    list.push({
      name: entry.name,
      from: typeof from === 'string' ? from : undefined,
      to,
      note: typeof note === 'string' ? note : undefined,
    });
  }
  return { ok: true, list };
}
