/**
 * Output for long waits: on a TTY a status line with a spinner that stays at the bottom;
 * otherwise plain lines only. Prompts read one line from the terminal. Everything written goes
 * through {@link terminalSafe}: the text may come from an agent.
 */
import { createInterface } from 'node:readline/promises';
import type { TerminalText } from './markdown-terminal.js';
import { terminalStyle, type TerminalStyle } from './output-format.js';
import { terminalSafe } from './terminal-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Terminal {
  readonly tty: boolean;
  /** Its width and whether it takes colour (none when it is not a TTY or NO_COLOR is set). */
  readonly style: TerminalStyle;
  private status = '';
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: NodeJS.WriteStream = process.stdout) {
    this.tty = Boolean(out.isTTY) && process.env.TERM !== 'dumb';
    this.style = terminalStyle(out);
  }

  /** Prints a line above the status line. */
  line(text = ''): void {
    this.clear();
    this.out.write(`${terminalSafe(text)}\n`);
    this.draw();
  }

  /** Prints rendered text (markdown-terminal.ts: already scrubbed, its escape sequences are our colours) above the status line. */
  rendered(text: TerminalText): void {
    this.clear();
    this.out.write(`${text}\n`);
    this.draw();
  }

  /** Writes text as it streams in (no newline added). */
  write(text: string): void {
    this.clear();
    this.out.write(terminalSafe(text));
    if (text.endsWith('\n')) this.draw();
  }

  /** Sets the status line (TTY only; plain output gets nothing: changes are printed as lines). */
  setStatus(text: string): void {
    this.status = terminalSafe(text);
    if (!this.tty) return;
    this.timer ??= setInterval(() => {
      this.frame = (this.frame + 1) % FRAMES.length;
      this.clear();
      this.draw();
    }, 100);
    this.timer.unref();
    this.clear();
    this.draw();
  }

  stopStatus(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    this.status = '';
  }

  /** Asks a question on the terminal; undefined when there is no TTY to ask on. */
  async prompt(question: string, signal?: AbortSignal): Promise<string | undefined> {
    if (!process.stdin.isTTY || !this.tty) return undefined;
    this.stopStatus();
    const rl = createInterface({ input: process.stdin, output: this.out });
    try {
      return (await rl.question(terminalSafe(question), { signal: signal ?? new AbortController().signal })).trim();
    } finally {
      rl.close();
    }
  }

  private clear(): void {
    if (this.tty && this.status) this.out.write('\r\x1b[2K');
  }

  private draw(): void {
    if (this.tty && this.status)
      this.out.write(`${FRAMES[this.frame]} ${this.status}`.slice(0, (this.out.columns ?? 100) - 1));
  }
}
