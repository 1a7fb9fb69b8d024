/**
 * Markdown rendered for a terminal: headings underlined, lists with hanging indents, tables drawn
 * and fitted to the terminal's width, risk coloured, links written out as their URL (which
 * terminals open on click) — no OSC 8 hyperlinks, no cursor movement: the only escape sequences
 * written are SGR colours, and none without colour.
 *
 * Parsing is marked's (CommonMark + GFM tables), drawing cli-table3's, wrapping wrap-ansi's
 * (ANSI- and wide-character aware): no hand-written padding.
 *
 * The markdown may come from agents. It is passed through {@link terminalSafe} before parsing,
 * and every piece of text marked hands back is passed through it again, because the lexer decodes
 * numeric character references: `&#27;[2J` in the source is a raw ESC in its tokens.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { Lexer, type Token, type Tokens } from 'marked';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { TerminalStyle } from './output-format.js';
import { terminalSafe } from './terminal-text.js';

declare const rendered: unique symbol;

/** Text for the terminal whose only escape sequences are our SGR colours; whatever an agent wrote in it was scrubbed. */
export type TerminalText = string & { readonly [rendered]: true };

/** Chalk's style names (`bold`, `red`, …), one or several. */
type Format = keyof ChalkInstance | Array<keyof ChalkInstance>;

/** The narrowest a table column gets (a wrapped word per line below it is unreadable). */
const MIN_COLUMN = 6;
const RISK_COLOURS: Record<string, Format> = { high: ['bold', 'red'], medium: 'yellow', low: 'green' };
/** `(high)`, `High risk`, a cell that says `medium`: the report's ways of naming a risk. */
const RISK = /\((high|medium|low)\)|\b(high|medium|low)(?= risk\b)|^(high|medium|low)$/gi;

/** `markdown` rendered for a terminal of `style.width` columns. */
export function renderMarkdown(markdown: string, style: TerminalStyle): TerminalText {
  const tokens = Lexer.lex(terminalSafe(markdown), { gfm: true });
  return new Renderer(style).blocks(tokens, style.width).join('\n') as TerminalText;
}

/** Our own text (a status line, a label), scrubbed, and painted when colour is on. */
export function paintTerminal(text: string, format: Format, style: TerminalStyle): TerminalText {
  return paint(terminalSafe(text), format, style) as TerminalText;
}

/** A risk (`high`, `medium`, `low`) in its colour (scrubbed; another word as it is). */
export function paintRisk(risk: string, style: TerminalStyle): TerminalText {
  return paintTerminal(risk, RISK_COLOURS[risk.toLowerCase()] ?? [], style);
}

/** Pieces of terminal text, one after the other. */
export function joinTerminal(pieces: TerminalText[], separator = ''): TerminalText {
  return pieces.join(terminalSafe(separator)) as TerminalText;
}

/**
 * Each line of `text` wrapped at spaces to `width` (a longer word, such as a link, stays whole),
 * its continuation lines indented two columns more than it: text wrapped here never starts a
 * line at the margin, so agent text in it cannot pass for a line of ours.
 */
export function fitLines<T extends string>(text: T, width: number): T {
  return text
    .split('\n')
    .map((line) => {
      const indent = `${/^\s*/.exec(line)![0]}  `;
      return wrapAnsi(line, Math.max(width - indent.length, 1), { trim: false })
        .split('\n')
        .map((part, i) => (i ? `${indent}${part.trimStart()}` : part).trimEnd())
        .join('\n');
    })
    .join('\n') as T;
}

/** Basic 16 colours (level 1): every terminal has them; none at all without colour. */
const colours = new Chalk({ level: 1 });

function paint(text: string, format: Format, style: TerminalStyle): string {
  if (!style.color || !text) return text;
  let painter = colours;
  for (const name of [format].flat()) painter = painter[name] as ChalkInstance;
  return painter(text);
}

/**
 * A table of our own (`status`'s delegations): columns aligned and wrapped to `style.width`, no
 * borders. Cells may hold agent text; they are scrubbed.
 */
export function renderColumns(rows: string[][], style: TerminalStyle, indent = 2): TerminalText[] {
  const cells = rows.map((r) => r.map((c) => terminalSafe(c)));
  const { widths, fits } = fitColumns(cells, style.width - indent, 2, 0);
  const margin = ' '.repeat(indent);
  if (!fits) {
    // Too narrow for columns that keep their words whole: one wrapped line per row instead.
    return cells.flatMap((r) =>
      wrapAnsi(r.filter(Boolean).join('  '), Math.max(style.width - indent - 2, 1), { hard: true, trim: true })
        .split('\n')
        .map((line, i) => `${margin}${i ? '  ' : ''}${line}` as TerminalText),
    );
  }
  const table = new Table({
    chars: Object.fromEntries(BORDER_NAMES.map((name) => [name, ''])),
    style: { 'padding-left': 0, 'padding-right': 2, head: [], border: [] },
  });
  table.push(...cells.map((r) => r.map((c, i) => wrapCell(c, widths[i]! - 2))));
  return table
    .toString()
    .split('\n')
    .map((line) => `${margin}${line}`.trimEnd() as TerminalText);
}

const BORDER_NAMES = [
  'top',
  'top-mid',
  'top-left',
  'top-right',
  'bottom',
  'bottom-mid',
  'bottom-left',
  'bottom-right',
  'left',
  'left-mid',
  'mid',
  'mid-mid',
  'right',
  'right-mid',
  'middle',
] as const;

class Renderer {
  constructor(private readonly style: TerminalStyle) {}

  /** Block tokens as lines of at most `width` columns, one blank line between blocks. */
  blocks(tokens: Token[], width: number): string[] {
    const out: string[][] = [];
    for (const token of tokens) {
      const lines = this.block(token, width);
      if (lines.length) out.push(lines);
    }
    return out.flatMap((lines, i) => (i === 0 ? lines : ['', ...lines]));
  }

  private block(token: Token, width: number): string[] {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case 'space':
      case 'def':
        return [];
      case 'heading': {
        const { depth, tokens } = token as Tokens.Heading;
        const title = this.paint(this.inline(tokens), depth === 1 ? ['bold', 'cyan'] : 'bold');
        const lines = this.wrap(title, width);
        if (depth > 2) return lines;
        const rule = (depth === 1 ? '═' : '─').repeat(Math.min(width, Math.max(...lines.map((l) => stringWidth(l)))));
        return [...lines, this.paint(rule, 'dim')];
      }
      case 'paragraph':
      case 'text':
        return this.wrap(this.inline(t.tokens ?? []) || leaf(t.text ?? ''), width);
      case 'list':
        return this.list(token as Tokens.List, width);
      case 'blockquote':
        return this.blocks((token as Tokens.Blockquote).tokens, width - 2).map((l) => `${this.paint('│', 'dim')} ${l}`);
      case 'code':
        return terminalSafe((token as Tokens.Code).text)
          .split('\n')
          .map((l) => `    ${l}`);
      case 'table':
        return this.table(token as Tokens.Table, width);
      case 'hr':
        return [this.paint('─'.repeat(Math.min(width, 80)), 'dim')];
      default:
        // html and anything newer: shown as the text it is.
        return this.wrap(leaf(t.raw ?? t.text ?? '').trimEnd(), width);
    }
  }

  private list(list: Tokens.List, width: number): string[] {
    const start = typeof list.start === 'number' ? list.start : 1;
    const numbers = list.items.map((_, i) => (list.ordered ? `${start + i}.` : '•'));
    const widest = Math.max(...numbers.map((m) => stringWidth(m)));
    // Numbers aligned on their dots: " 9." above "10.".
    const markers = list.items.map(
      (item, i) => numbers[i]!.padStart(widest) + (item.task ? ` [${item.checked ? 'x' : ' '}]` : ''),
    );
    const indent = Math.max(...markers.map((m) => stringWidth(m))) + 1;
    const lines: string[] = [];
    list.items.forEach((item, i) => {
      const body = this.blocks(
        item.tokens.filter((t) => t.type !== 'checkbox'),
        width - indent,
      );
      if (list.loose && i > 0) lines.push('');
      body.forEach((line, j) =>
        lines.push(j === 0 ? `${markers[i]!.padEnd(indent)}${line}` : line ? `${' '.repeat(indent)}${line}` : ''),
      );
    });
    return lines;
  }

  private table(table: Tokens.Table, width: number): string[] {
    const cell = (c: Tokens.TableCell) => this.riskCell(this.inline(c.tokens));
    const rows = [
      table.header.map((c) => this.paint(this.inline(c.tokens), 'bold')),
      ...table.rows.map((r) => r.map(cell)),
    ];
    // Each column costs its text, one space either side and a border.
    const { widths } = fitColumns(rows, width - 1, 2, 1);
    const drawn = new Table({
      style: { head: [], border: this.style.color ? ['dim'] : [] },
      colAligns: table.align.map((a) => a ?? 'left'),
    });
    drawn.push(...rows.map((r) => r.map((c, i) => wrapCell(c, widths[i]! - 2))));
    return drawn.toString().split('\n');
  }

  private inline(tokens: Token[]): string {
    return tokens.map((token) => this.span(token)).join('');
  }

  private span(token: Token): string {
    const t = token as Tokens.Generic;
    switch (token.type) {
      case 'text':
        return t.tokens ? this.inline(t.tokens) : this.risks(leaf(t.text ?? ''));
      case 'escape':
        return leaf(t.text ?? '');
      case 'strong':
        return this.paint(this.inline(t.tokens ?? []), 'bold');
      case 'em':
        return this.paint(this.inline(t.tokens ?? []), 'italic');
      case 'del':
        return this.paint(this.inline(t.tokens ?? []), 'strikethrough');
      case 'codespan':
        // Code is literal: no character reference in it was decoded, none is undone.
        return this.paint(terminalSafe(t.text ?? ''), 'cyan');
      case 'br':
        return '\n';
      case 'link':
      case 'image': {
        const { href, tokens } = token as Tokens.Link;
        const label = this.inline(tokens ?? []);
        const url = this.paint(leaf(href), ['underline', 'blue']);
        const shown = token.type === 'image' ? `[image: ${label}]` : label;
        return !label || stripStyle(label) === leaf(href) ? url : `${shown} (${url})`;
      }
      default:
        // inline html and anything newer: its source, as text.
        return leaf(t.raw ?? t.text ?? '');
    }
  }

  /** A table cell that is a risk (`high`) gets its colour. */
  private riskCell(text: string): string {
    return RISK_COLOURS[text.toLowerCase()] ? this.paint(text, RISK_COLOURS[text.toLowerCase()]!) : text;
  }

  private risks(text: string): string {
    if (!this.style.color) return text;
    return text.replace(RISK, (match, ...groups: unknown[]) => {
      const risk = groups.slice(0, 3).find((g) => typeof g === 'string') as string;
      return match.replace(risk, this.paint(risk, RISK_COLOURS[risk.toLowerCase()]!));
    });
  }

  private wrap(text: string, width: number): string[] {
    return wrapAnsi(text, Math.max(width, 1), { hard: true, trim: true }).split('\n');
  }

  private paint(text: string, format: Format): string {
    return paint(text, format, this.style);
  }
}

/**
 * Column widths (with `padding`) for `rows` in `width` columns, `border` per column: each column
 * its natural width when all fit. Otherwise each column first gets its longest word (at least
 * {@link MIN_COLUMN}, at most its natural width), and what is left goes to the columns that
 * want more in proportion to the square root of what they lack (a long "why" column gets more
 * than a short "suggested" one without starving it). `fits` is false when even the longest
 * words do not fit: the columns then share the width and words break.
 */
function fitColumns(rows: string[][], width: number, padding: number, border: number) {
  const count = Math.max(0, ...rows.map((r) => r.length));
  const column = (i: number) => rows.flatMap((r) => (r[i] ?? '').split('\n'));
  const natural = Array.from({ length: count }, (_, i) => Math.max(1, ...column(i).map((l) => stringWidth(l))));
  const available = width - count * (padding + border);
  const sum = (widths: number[]) => widths.reduce((a, b) => a + b, 0);
  const floors = natural.map((w, i) => {
    const longestWord = Math.max(...column(i).flatMap((l) => l.split(/\s+/).map((word) => stringWidth(word))));
    return Math.min(w, Math.max(longestWord, MIN_COLUMN));
  });
  const fits = sum(floors) <= available;
  const narrowest = Math.max(1, Math.min(MIN_COLUMN, Math.floor(available / Math.max(count, 1))));
  const widths = sum(natural) <= available ? natural : fits ? floors : natural.map((w) => Math.min(w, narrowest));
  for (let left = available - sum(widths); left > 0;) {
    const wanting = widths.map((w, i) => ({ i, lack: natural[i]! - w })).filter(({ lack }) => lack > 0);
    if (!wanting.length) break;
    const weight = wanting.reduce((total, { lack }) => total + Math.sqrt(lack), 0);
    let given = 0;
    for (const { i, lack } of wanting) {
      const more = Math.min(lack, Math.max(1, Math.floor((left * Math.sqrt(lack)) / weight)), left - given);
      widths[i]! += more;
      given += more;
    }
    left -= given;
    if (!given) break;
  }
  return { widths: widths.map((w) => w + padding), fits };
}

function wrapCell(text: string, width: number): string {
  return wrapAnsi(text, Math.max(width, 1), { hard: true, trim: true });
}

/**
 * Leaf text out of marked: its HTML escaping of `& < > " '` undone (CommonMark text is not HTML
 * here), then scrubbed again, since numeric character references were decoded by the lexer.
 */
function leaf(text: string): string {
  return terminalSafe(text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => HTML_ENTITIES[name]!));
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

// eslint-disable-next-line no-control-regex -- removing our own SGR sequences to compare text
const stripStyle = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
