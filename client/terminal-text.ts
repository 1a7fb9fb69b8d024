/**
 * Agent text made safe for a terminal. Questions, artifact text, reports and error messages
 * come from agents we do not control; printed raw, an ESC/CSI/OSC/DCS sequence in them could
 * clear the screen, rewrite what the user reads, or write to the clipboard (OSC 52).
 *
 * Every control character except newline and tab (C0 0x00–0x1F, DEL 0x7F, C1 0x80–0x9F, which
 * some terminals read as 8-bit CSI/OSC/DCS introducers) is rendered visibly as a `\xNN` escape,
 * so `ESC ] 52 ; c ; …` prints as the harmless text `\x1b]52;c;…` and the user still sees that
 * the agent sent something odd. Escaping each character on its own neutralises any sequence,
 * lone or complete, without parsing it. Bidi overrides and invisible characters, which make text
 * read as something else, are shown as `<U+202E>` (contract/text.ts). Agent text that must stay
 * on its line (ids, names, states) passes through {@link oneLine}; text of several lines is
 * indented under its heading ({@link indentLines}), so no agent line can pass for one of ours.
 */
import { format } from 'node:util';
import type { LogEntry } from '@temporalio/worker';
import { replaceHidden, revealHidden } from '../contract/text.js';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** JSON.stringify escapes C0 but leaves DEL and C1 raw (and hidden characters); `\uNNNN` is the same JSON value. */
const UNSAFE_IN_JSON = /[\u007f-\u009f]/g;

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `text` with every control character but `\n` and `\t` written as `\xNN`, and hidden characters as `<U+XXXX>`. */
export function terminalSafe(text: string): string {
  return revealHidden(text.replace(UNSAFE, (c) => `\\x${hex(c, 2)}`));
}

/** Agent text that must stay on one line (an id, a name, a state): its line breaks written as `\n`, `\r`. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\n|\r/g, (b) => (b === '\n' ? '\\n' : b === '\r' ? '\\r' : '\\r\\n'));
}

/** Agent text of several lines under a heading of ours: every line after the first starts with `indent`. */
export function indentLines(text: string, indent: string): string {
  return text.replace(/\r\n|\n|\r/g, `\n${indent}`);
}

/**
 * `JSON.stringify(value, null, indent)`, exactly the same JSON value, with no control character
 * left raw (DEL and C1 are written as `\u007f`…`\u009f`, bidi controls and invisible characters
 * as `\u202e` and the like), for `--json` output on a terminal.
 */
export function terminalJson(
  value: unknown,
  indent?: number,
  replacer?: (this: unknown, key: string, value: unknown) => unknown,
): string {
  const json = JSON.stringify(value, replacer, indent).replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
  // A hidden character outside the BMP (a tag character) is written as its surrogate pair.
  return replaceHidden(json, (c) =>
    c
      .split('') // UTF-16 code units
      .map((unit) => `\\u${hex(unit, 4)}`)
      .join(''),
  );
}

/**
 * The Temporal SDK's default log line (`<time> [LEVEL] message {meta}` on stderr), made terminal
 * safe: activity failures it logs quote what agents said. For `new DefaultLogger(level, …)`.
 */
export function terminalSafeLogFunction(entry: LogEntry): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = entry.meta === undefined ? '' : ` ${format(entry.meta)}`;
  process.stderr.write(`${terminalSafe(oneLine(`${time} [${entry.level}] ${entry.message}${meta}`))}\n`);
}
