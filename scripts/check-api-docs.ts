/**
 * `npm run docs:api`, after TypeDoc: every public type (class, interface, type alias) of the
 * package's entry points says what it is for and links the topic doc in docs/ that explains it.
 * TypeDoc itself (warnings as errors) already requires a comment on every exported symbol and on
 * every member of a public type (typedoc.json's requiredToBeDocumented); this
 * adds the link, read from the JSON TypeDoc writes beside the HTML.
 * Usage: tsx scripts/check-api-docs.ts docs/api/api.json
 */
import { readFileSync } from 'node:fs';
import { ReflectionKind, type JSONOutput } from 'typedoc';

const PUBLIC_TYPES = ReflectionKind.Class | ReflectionKind.Interface | ReflectionKind.TypeAlias;

/** The public types of every entry point whose summary is missing or links no docs/ file. */
function typesWithoutTopic(project: JSONOutput.ProjectReflection): string[] {
  return (project.children ?? []).flatMap((entry) =>
    (entry.children ?? [])
      .filter((symbol) => (symbol.kind & PUBLIC_TYPES) !== 0)
      .filter((symbol) => {
        const summary = symbol.comment?.summary ?? [];
        return !summary.some(
          (part) => part.kind === 'relative-link' && /(^|\/)docs\/[^/#]+\.md(#[\w-]+)?$/.test(part.text),
        );
      })
      .map((symbol) => {
        const source = symbol.sources?.[0];
        return `${entry.name} ${symbol.name} (${source ? `${source.fileName}:${source.line}` : 'no source'})`;
      }),
  );
}

const file = process.argv[2];
if (!file) throw new Error('usage: tsx scripts/check-api-docs.ts <TypeDoc JSON file>');
const missing = typesWithoutTopic(JSON.parse(readFileSync(file, 'utf8')) as JSONOutput.ProjectReflection);
if (missing.length > 0) {
  console.error(
    `${missing.length} public types do not link the topic doc that explains them; end the comment's summary with "See [docs/<topic>.md](<relative path>)":\n${missing.map((m) => `  ${m}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('Every public type links its topic doc.');
