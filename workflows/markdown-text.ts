/**
 * Agent text inside markdown we write: the current details the Temporal UI renders (CommonMark,
 * parsed by micromark; images and raw HTML are dropped there, links are kept) and the release
 * report. Escaped, an agent's text shows as the characters it sent and cannot become a link, an
 * image, HTML, a heading, a list or a table cell of its own. Pure string code: sandbox-safe.
 *
 * How: CommonMark's backslash escape makes any ASCII punctuation literal. What opens inline
 * markup is escaped wherever it is: `[ ]` (links, images), `` ` `` `*` `_` `\` `|` (table cells),
 * `<` before a letter, `/`, `!` or `?` (HTML, autolinks), `&` before a letter or `#` (entities).
 * What opens a block (`#`, `>`, `-`, `+`, `=`, `~`, `1.`, `1)`) is escaped where a line starts.
 * Line breaks (`\n`, `\r`) separate blocks, so inline text gets none. Everything else stays as
 * it is, so versions (`1.4.0`), ranges (`>=18 <21`) and sentences read as they were sent.
 * Bidi controls and invisible characters are shown as `<U+202E>` (contract/text.ts), so an
 * RLO question cannot read as another word. Linear: single-character patterns, no regex backtracking.
 */
import { revealHidden } from '../contract/text.js';

const INLINE_MARKUP = /[\\`*_[\]|]|<(?=[A-Za-z/!?])|&(?=[A-Za-z#])/g;

/** `text` as literal markdown inside a line, after other text (line breaks become spaces). */
export function markdownInline(text: string): string {
  return revealHidden(text)
    .replace(/\r\n?|\n/g, ' ')
    .replace(INLINE_MARKUP, (c) => `\\${c}`);
}

/** `text` split into whole lines of literal markdown (e.g. to prefix each with `> `). */
export function markdownLines(text: string): string[] {
  return revealHidden(text)
    .split(/\r\n?|\n/)
    .map(escapeLine);
}

/**
 * `text` as an inline code span: nothing inside a code span is markup, and the fence is one
 * backtick longer than the longest run inside, so the text cannot close it early.
 */
export function markdownCode(text: string): string {
  const flat = revealHidden(text).replace(/\r\n?|\n/g, ' ');
  let longest = 0;
  let run = 0;
  for (const c of flat) {
    run = c === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = '`'.repeat(longest + 1);
  // A space on each side is stripped again by the parser; it keeps a leading/trailing backtick off the fence.
  return flat.startsWith('`') || flat.endsWith('`') ? `${fence} ${flat} ${fence}` : `${fence}${flat}${fence}`;
}

function escapeLine(line: string): string {
  const escaped = markdownInline(line);
  // Block markers: headings, quotes, bullets, setext underlines, fences, ordered lists.
  let i = 0;
  while (escaped[i] === ' ' || escaped[i] === '\t') i += 1;
  if ('#>-+=~'.includes(escaped[i] ?? 'x')) return `${escaped.slice(0, i)}\\${escaped.slice(i)}`;
  let j = i;
  while (j < escaped.length && escaped[j]! >= '0' && escaped[j]! <= '9') j += 1;
  if (j > i && (escaped[j] === '.' || escaped[j] === ')')) return `${escaped.slice(0, j)}\\${escaped.slice(j)}`;
  return escaped;
}
