import { Command } from 'commander';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { MarkdownBlocks } from '../../../client/markdown-blocks.js';
import { renderColumns, renderMarkdown } from '../../../client/markdown-terminal.js';
import { outputFormat, terminalStyle, withFormatOption } from '../../../client/output-format.js';

// eslint-disable-next-line no-control-regex -- the escape sequences written are what is checked
const SGR = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex -- any control character but newline
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const COLOUR = { width: 80, color: true };
const PLAIN = { width: 80, color: false };

const REASONS = [
  'node-sass is deprecated and publishes no binaries for Node.js 24; the install falls back to node-gyp and fails.',
  'sharp ^0.31.3 has no prebuilt libvips binaries for Node.js 24; 0.33 ships Node-API builds.',
];
const TABLE = [
  '| Package | Current | Suggested | Risk | Why |',
  '| --- | --- | --- | --- | --- |',
  `| node-sass | ^7.0.3 | sass ^1.77.0 | high | ${REASONS[0]} |`,
  `| sharp | ^0.31.3 | ^0.33.5 | low | ${REASONS[1]} |`,
].join('\n');

describe('renderMarkdown', () => {
  it('fits tables into any width from 40 to 200 columns, and keeps every word whole from 60', () => {
    for (const width of [40, 60, 80, 120, 200]) {
      const lines = renderMarkdown(TABLE, { width, color: false }).split('\n');
      expect(Math.max(...lines.map((l) => stringWidth(l))), `width ${width}`).toBeLessThanOrEqual(width);
      if (width < 60) continue; // five columns in 40: words break
      const text = lines.join(' ').replace(/[│┌┐└┘├┤┬┴┼─]/g, ' ');
      for (const word of REASONS.join(' ').split(' ')) expect(text.split(/\s+/)).toContain(word);
    }
  });

  it('renders headings, lists and emphasis without their markup, and wraps paragraphs', () => {
    const markdown = `# Fix suggestions\n\n1. **node-sass** (high): replace it\n2. *jest* (medium)\n\n- one\n- two\n\n${'word '.repeat(30)}`;
    const lines = renderMarkdown(markdown, { width: 40, color: false }).split('\n');
    expect(lines.slice(0, 2)).toEqual(['Fix suggestions', '═══════════════']);
    expect(lines).toContain('1. node-sass (high): replace it');
    expect(lines).toContain('2. jest (medium)');
    expect(lines).toContain('• one');
    expect(Math.max(...lines.map((l) => stringWidth(l)))).toBeLessThanOrEqual(40);
  });

  it('colours risks only when colour is on, with SGR sequences and nothing else', () => {
    const coloured = renderMarkdown(`${TABLE}\n\n- High risk: 1 (node-sass)\n- **sharp** (low)`, COLOUR);
    expect(coloured).toContain('\u001b[31mhigh\u001b[39m');
    expect(coloured).toContain('\u001b[32mlow\u001b[39m');
    expect(coloured.replace(SGR, '')).not.toMatch(CONTROL);
    expect(renderMarkdown(TABLE, PLAIN)).not.toMatch(CONTROL);
  });

  it('writes links out as their URL, with no OSC 8 hyperlink', () => {
    const text = renderMarkdown(
      'See [the UI](http://127.0.0.1:8233/x?a=1&amp;b=2), <https://a2a.example/y> and https://b.example/z.',
      { width: 200, color: true },
    );
    expect(text.replace(SGR, '')).toBe(
      'See the UI (http://127.0.0.1:8233/x?a=1&b=2), https://a2a.example/y and https://b.example/z.',
    );
    expect(text).not.toContain('\u001b]8;');
  });

  it('lets no escape sequence of an agent through, raw or as a character reference, wherever it stands', () => {
    const attacks = [
      '\u001b[2J\u001b[H', // clear the screen
      '\u001b]52;c;aGk=\u0007', // write the clipboard
      '\u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\', // a hidden hyperlink
      '\u009b31m', // 8-bit CSI
      '&#27;[2J', // a character reference the lexer decodes into ESC
      '&#x1b;]52;c;aGk=&#7;',
      '&#155;31m',
    ];
    for (const attack of attacks) {
      const markdown = [
        `# ${attack}`,
        `A paragraph ${attack} with **${attack}** and \`${attack}\` and [${attack}](http://x.example/${attack}).`,
        `- ${attack}`,
        `> ${attack}`,
        `| a | b |\n| --- | --- |\n| ${attack} | high |`,
        `\`\`\`\n${attack}\n\`\`\``,
        `<span>${attack}</span>`,
      ].join('\n\n');
      const rendered = renderMarkdown(markdown, COLOUR);
      expect(rendered.replace(SGR, ''), JSON.stringify(attack)).not.toMatch(CONTROL);
    }
    // What was sent stays visible, as text.
    expect(renderMarkdown('&#27;[2J \u001b[31m', PLAIN)).toBe('\\x1b[2J \\x1b[31m');
  });
});

describe('renderColumns', () => {
  it('aligns rows in columns when they fit, and stacks each row on wrapped lines when they do not', () => {
    const rows = [
      ['compat', 'completed', 'TASK_STATE_COMPLETED', 'task 5cb82deb-fc79-4109-b5ad-ed049e20c92b'],
      ['license', 'working', 'TASK_STATE_WORKING', 'task T2'],
    ];
    const wide = renderColumns(rows, { width: 120, color: false });
    expect(wide[0]).toMatch(/^ {2}compat {3}completed {2}TASK_STATE_COMPLETED {2}task 5cb82deb/);
    expect(wide[1]).toMatch(/^ {2}license {2}working {4}TASK_STATE_WORKING {4}task T2$/);
    const narrow = renderColumns(rows, { width: 50, color: false });
    expect(narrow.every((line) => stringWidth(line) <= 50 && line.startsWith('  '))).toBe(true);
    expect(narrow.join(' ').replace(/\s+/g, ' ')).toContain('task 5cb82deb-fc79-4109-b5ad-ed049e20c92b');
  });
});

describe('MarkdownBlocks', () => {
  it('hands out whole blocks: up to the last blank line outside a code fence, the rest at the end', () => {
    const blocks = new MarkdownBlocks();
    expect(blocks.push('# Title\n\n| a |\n| --- |\n')).toBe('# Title\n\n');
    expect(blocks.push('| 1 |\n\n```\nx\n\ny\n')).toBe('| a |\n| --- |\n| 1 |\n\n');
    expect(blocks.push('```\n\ntail')).toBe('```\nx\n\ny\n```\n\n');
    expect(blocks.rest()).toBe('tail');
    expect(blocks.rest()).toBe('');
  });
});

describe('terminalStyle', () => {
  it('colours a TTY of its width, but not with NO_COLOR or TERM=dumb; 80 columns or COLUMNS off a TTY', () => {
    const tty = { isTTY: true, columns: 132 };
    expect(terminalStyle(tty, {})).toEqual({ width: 132, color: true });
    expect(terminalStyle(tty, { NO_COLOR: '1' })).toEqual({ width: 132, color: false });
    expect(terminalStyle(tty, { NO_COLOR: '' })).toEqual({ width: 132, color: true });
    expect(terminalStyle(tty, { TERM: 'dumb' })).toEqual({ width: 80, color: false });
    expect(terminalStyle({ isTTY: false }, {})).toEqual({ width: 80, color: false });
    expect(terminalStyle({ isTTY: false }, { COLUMNS: '100' })).toEqual({ width: 100, color: false });
  });
});

describe('--format', () => {
  const parse = async (...args: string[]) => {
    let error = '';
    const command = withFormatOption(new Command('status'), 'it')
      .exitOverride()
      .configureOutput({ writeErr: (text) => (error += text) })
      .action(() => undefined);
    const parsed = await command.parseAsync(args, { from: 'user' }).then(
      (c) => outputFormat(c.opts()),
      () => undefined,
    );
    return { parsed, error };
  };

  it('takes text, markdown and json (and --json), text by default', async () => {
    expect((await parse()).parsed).toBe('text');
    expect((await parse('--format', 'markdown')).parsed).toBe('markdown');
    expect((await parse('--format', 'json')).parsed).toBe('json');
    expect((await parse('--json')).parsed).toBe('json');
  });

  it('refuses another value in one sentence naming the choices', async () => {
    const { parsed, error } = await parse('--format', 'xml');
    expect(parsed).toBeUndefined();
    expect(error).toBe(
      "error: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, markdown, json.\n",
    );
  });
});
