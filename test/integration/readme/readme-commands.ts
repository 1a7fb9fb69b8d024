/**
 * The commands of the ```sh blocks of README.md and the other documentation files, read from the
 * files themselves, so that what a reader copies is what the examples test runs: continuation lines joined, `a && b` split into its
 * steps, and the `# …` lines right below a command kept as the output the file shows for it.
 */
import { Parser } from 'commonmark';

export interface ReadmeCommand {
  /** The documentation file, relative to the package root (README.md, docs/guide.md, …). */
  file: string;
  /** The command as written: runnable by bash once its placeholders are filled (a trailing `# note` included). */
  text: string;
  /** Without the trailing note and with whitespace collapsed: what the examples table matches. */
  command: string;
  /** Line in the file. */
  line: number;
  /** File and line of the block's opening fence: which block the command belongs to. */
  block: string;
  /** The `# …` lines below the command: the output the file shows for it. */
  output: string[];
}

/** `file line N`: where a command is written, for messages. */
export function where(command: ReadmeCommand): string {
  return `${command.file} line ${command.line}`;
}

/** Every command of every ```sh block of `markdown` (the text of `file`), in order. */
export function readmeCommands(markdown: string, file: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    const node = event.node;
    if (!event.entering || node.type !== 'code_block' || node.info?.trim() !== 'sh') continue;
    const firstLine = node.sourcepos[0][0] + 1;
    const block = `${file}:${firstLine - 1}`;
    let pending = '';
    let pendingLine = 0;
    const lines = (node.literal ?? '').split('\n');
    lines.forEach((raw, index) => {
      const line = firstLine + index;
      if (!pending && /^\s*#/.test(raw)) {
        commands.at(-1)?.output.push(raw.replace(/^\s*#\s?/, ''));
        return;
      }
      if (!pending && !raw.trim()) return;
      if (!pending) pendingLine = line;
      if (raw.endsWith('\\')) {
        pending += `${raw.slice(0, -1)} `;
        return;
      }
      const whole = pending + raw;
      pending = '';
      // `a && b` are two commands a reader runs one after the other.
      for (const text of whole.split(/\s+&&\s+/)) {
        commands.push({ file, text: text.trim(), command: withoutNote(text), line: pendingLine, block, output: [] });
      }
    });
  }
  return commands;
}

/** The command without its trailing `# note`, whitespace collapsed. */
function withoutNote(text: string): string {
  return text
    .replace(/\s+#\s.*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The command text with its placeholders (`<taskId>`) replaced by values from earlier steps and
 * its optional parts (`[--follow]`) included.
 * @throws Error naming the file and line when a placeholder has no value or a `…` stands for one.
 */
export function fill(command: ReadmeCommand, values: Record<string, string> = {}): string {
  if (command.text.includes('…')) {
    throw new Error(`${where(command)}: "…" in \`${command.command}\` cannot run; write a value there.`);
  }
  return command.text.replace(/\[(--?[^\]]*)\]/g, '$1').replace(/<([A-Za-z][\w-]*)>/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new Error(
        `${where(command)}: no value for <${name}> in \`${command.command}\`; the examples test fills it from an earlier step.`,
      );
    }
    if (!/^[\w.:/-]+$/.test(value)) throw new Error(`value for <${name}> is not shell-safe: ${value}`);
    return value;
  });
}

/**
 * A line of output the documentation shows, as a pattern: host:port pairs and the 8-hex suffixes of
 * generated ids stand for any value (they differ on every run and machine); the rest is literal.
 */
export function outputPattern(shown: string): RegExp {
  const hostPort = /[A-Za-z0-9.-]+:\d{2,5}/g;
  const idSuffix = /-[0-9a-f]{8}\b/g;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = shown
    .split(hostPort)
    .map((piece) => piece.split(idSuffix).map(escape).join('-[0-9a-f]{8}'))
    .join('[A-Za-z0-9.-]+:\\d+');
  return new RegExp(`^${source}$`, 'm');
}
