/**
 * The project's documentation: README.md, CONTRIBUTING.md, the topic docs in docs/ and the
 * benchmark's bench/README.md. The examples test runs the `sh` blocks of all of them, and the
 * docs index test checks that the README links every topic doc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../platform/paths.js';

/** The topic docs: the markdown files of docs/ (not of the API reference built into docs/api/), relative to the package root. */
export function topicDocs(): string[] {
  return readdirSync(join(packageRoot, 'docs'), { encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file))
    .sort();
}

/** Every documentation file, README first, as paths relative to the package root. */
export function documentationFiles(): string[] {
  return ['README.md', 'CONTRIBUTING.md', ...topicDocs(), join('bench', 'README.md')];
}

/** The text of a documentation file given relative to the package root. */
export function readDoc(file: string): string {
  return readFileSync(join(packageRoot, file), 'utf8');
}
