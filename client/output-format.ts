/**
 * How the human-facing commands (`status`, `watch`, `delegate --follow`, the demo) print: the
 * `--format` flag, and what the terminal in front of stdout can show (its width, and whether it
 * gets colour: a TTY without NO_COLOR, see https://no-color.org).
 */
import { Option, type Command } from 'commander';

export const OUTPUT_FORMATS = ['text', 'markdown', 'json'] as const;

/**
 * `text`: rendered for the terminal (headings, lists, tables fitted to its width; colour on a TTY
 * unless NO_COLOR is set, plain text otherwise). `markdown`: the report as the markdown source it
 * is kept as. `json`: the documented JSON objects.
 */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What the terminal can show. */
export interface TerminalStyle {
  /** Columns to fit tables and paragraphs into. */
  width: number;
  /** Whether SGR colour sequences may be written. */
  color: boolean;
}

/** Width used when stdout is not a terminal and COLUMNS does not say otherwise. */
const DEFAULT_WIDTH = 80;

/** Adds `--format <format>` (and `--json`, short for `--format json`). Commander refuses other values in one sentence. */
export function withFormatOption(command: Command, what: string): Command {
  return command
    .addOption(
      new Option('--format <format>', `how to print ${what}`)
        .choices(OUTPUT_FORMATS)
        .default('text' satisfies OutputFormat),
    )
    .option('--json', 'short for --format json');
}

/** The format the options chose (`--json` wins, as it always did). */
export function outputFormat(options: { format?: string; json?: boolean }): OutputFormat {
  if (options.json) return 'json';
  return OUTPUT_FORMATS.find((f) => f === options.format) ?? 'text';
}

/** The style of `out`: its columns and colour on a TTY (not TERM=dumb, not NO_COLOR); 80 columns (or COLUMNS) and no colour otherwise. */
export function terminalStyle(
  out: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): TerminalStyle {
  const tty = Boolean(out.isTTY) && env.TERM !== 'dumb';
  const columns = tty && out.columns ? out.columns : Number(env.COLUMNS);
  return {
    width: Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_WIDTH,
    // NO_COLOR counts when it is set to anything but the empty string.
    color: tty && !env.NO_COLOR,
  };
}
