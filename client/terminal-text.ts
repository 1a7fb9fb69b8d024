/**
 * Agent text made safe for a terminal. Questions, artifact text, reports and error messages
 * come from agents we do not control; printed raw, an ESC/CSI/OSC/DCS sequence in them could
 * clear the screen, rewrite what the user reads, or write to the clipboard (OSC 52).
 *
 * Every control character except newline and tab (C0 0x00–0x1F, DEL 0x7F, C1 0x80–0x9F, which
 * some terminals read as 8-bit CSI/OSC/DCS introducers) is rendered visibly as a `\xNN` escape,
 * so `ESC ] 52 ; c ; …` prints as the harmless text `\x1b]52;c;…` and the user still sees that
 * the agent sent something odd. Escaping each character on its own neutralises any sequence,
 * lone or complete, without parsing it.
 */
import { format } from 'node:util';
import type { LogEntry } from '@temporalio/worker';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** JSON.stringify escapes C0 but leaves DEL and C1 raw; `\uNNNN` is the same JSON value. */
const UNSAFE_IN_JSON = /[\u007f-\u009f]/g;

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `text` with every control character but `\n` and `\t` written as `\xNN`. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\x${hex(c, 2)}`);
}

/**
 * `JSON.stringify(value, null, indent)`, exactly the same JSON value, with no control character
 * left raw (DEL and C1 are written as `\u007f`…`\u009f`), for `--json` output on a terminal.
 */
export function terminalJson(
  value: unknown,
  indent?: number,
  replacer?: (this: unknown, key: string, value: unknown) => unknown,
): string {
  return JSON.stringify(value, replacer, indent).replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}

/**
 * The Temporal SDK's default log line (`<time> [LEVEL] message {meta}` on stderr), made terminal
 * safe: activity failures it logs quote what agents said. For `new DefaultLogger(level, …)`.
 */
export function terminalSafeLogFunction(entry: LogEntry): void {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = entry.meta === undefined ? '' : ` ${format(entry.meta)}`;
  process.stderr.write(`${terminalSafe(`${time} [${entry.level}] ${entry.message}${meta}`)}\n`);
}
