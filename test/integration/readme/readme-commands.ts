/**
 * The commands of README.md's ```sh blocks, read from the README itself, so that what a reader
 * copies is what the examples test runs: continuation lines joined, `a && b` split into its
 * steps, and the `# …` lines right below a command kept as the output the README shows for it.
 */
import { Parser } from 'commonmark';

export interface ReadmeCommand {
  /** The command as written: runnable by bash once its placeholders are filled (a trailing `# note` included). */
  text: string;
  /** Without the trailing note and with whitespace collapsed: what the examples table matches. */
  command: string;
  /** Line in README.md. */
  line: number;
  /** Line of the block's opening fence: which block the command belongs to. */
  block: number;
  /** The `# …` lines below the command: the output the README shows for it. */
  output: string[];
}

/** Every command of every ```sh block, in README order. */
export function readmeCommands(markdown: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    const node = event.node;
    if (!event.entering || node.type !== 'code_block' || node.info?.trim() !== 'sh') continue;
    const block = node.sourcepos[0][0];
    const firstLine = block + 1;
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
        commands.push({ text: text.trim(), command: withoutNote(text), line: pendingLine, block, output: [] });
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
 * @throws Error naming the README line when a placeholder has no value or a `…` stands for one.
 */
export function fill(command: ReadmeCommand, values: Record<string, string> = {}): string {
  if (command.text.includes('…')) {
    throw new Error(`README.md line ${command.line}: "…" in \`${command.command}\` cannot run; write a value there.`);
  }
  return command.text.replace(/\[(--?[^\]]*)\]/g, '$1').replace(/<([A-Za-z][\w-]*)>/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new Error(
        `README.md line ${command.line}: no value for <${name}> in \`${command.command}\`; the examples test fills it from an earlier step.`,
      );
    }
    if (!/^[\w.:/-]+$/.test(value)) throw new Error(`value for <${name}> is not shell-safe: ${value}`);
    return value;
  });
}

/**
 * A line of output the README shows, as a pattern: host:port pairs and the 8-hex suffixes of
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
