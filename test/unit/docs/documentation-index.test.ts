/**
 * The README stays a page read in minutes that leads to everything else: under 300 lines, a link
 * to every topic doc, and no link in any documentation file that leads nowhere (a file that is not
 * there, or a heading that is not in it).
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { Parser, type Node } from 'commonmark';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';
import { documentationFiles, readDoc, topicDocs } from '../../helpers/documentation.js';

interface Link {
  file: string;
  line: number;
  destination: string;
}

/** Every link and image of a markdown file, with the line of the paragraph or cell it is in. */
function links(file: string): Link[] {
  const found: Link[] = [];
  const walker = new Parser().parse(readDoc(file)).walker();
  let line = 1;
  for (let event = walker.next(); event; event = walker.next()) {
    const { node } = event;
    if (node.sourcepos) line = node.sourcepos[0][0];
    if (event.entering && (node.type === 'link' || node.type === 'image') && node.destination) {
      found.push({ file, line, destination: node.destination });
    }
  }
  return found;
}

/** The text of a heading: its text and code spans. */
function headingText(heading: Node): string {
  let text = '';
  const walker = heading.walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (event.entering && (event.node.type === 'text' || event.node.type === 'code')) text += event.node.literal ?? '';
  }
  return text;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const walker = new Parser().parse(readDoc(file)).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (!event.entering || event.node.type !== 'heading') continue;
    const slug = headingText(event.node)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug);
    seen.set(slug, (count ?? -1) + 1);
    if (count !== undefined) seen.set(`${slug}-${count + 1}`, 0);
  }
  return new Set(seen.keys());
}

/** Where a relative link leads, relative to the package root, and the heading it names. */
function target(link: Link): { path: string; anchor: string } {
  const [path = '', anchor = ''] = link.destination.split('#');
  return { path: path ? normalize(join(dirname(link.file), decodeURIComponent(path))) : link.file, anchor };
}

const isRelative = (link: Link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.destination);

describe('the README', () => {
  const readme = readDoc('README.md');

  it('stays under 300 lines', () => {
    expect(readme.split('\n').length, 'README.md is read in minutes: move the detail to a docs/ topic').toBeLessThan(300);
  });

  it('links every topic doc in docs/', () => {
    const linked = new Set(links('README.md').filter(isRelative).map((link) => target(link).path));
    const unlinked = topicDocs().filter((doc) => !linked.has(doc));
    expect(unlinked, 'add each to the Documentation table of README.md').toEqual([]);
  });

  it('shows how to delegate from your own workflow in its first hundred lines', () => {
    const line = readme.split('\n').indexOf('## Delegate from your own workflow');
    expect(line).toBeGreaterThan(0);
    expect(line).toBeLessThan(100);
  });
});

describe('the links of every documentation file', () => {
  it('lead to files that exist and to headings that are in them', () => {
    const broken = documentationFiles()
      .flatMap(links)
      .filter(isRelative)
      .flatMap((link) => {
        const { path, anchor } = target(link);
        if (!existsSync(join(packageRoot, path))) return [`${link.file}:${link.line}: ${link.destination} (no such file)`];
        if (anchor && (!path.endsWith('.md') || !anchors(path).has(anchor))) {
          return [`${link.file}:${link.line}: ${link.destination} (no heading #${anchor} in ${path})`];
        }
        return [];
      });
    expect(broken).toEqual([]);
  });
});
