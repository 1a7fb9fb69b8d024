/**
 * The release report as `status` shows it in a real pseudo-terminal (util-linux `script`, the
 * width set with `stty`), read back as a screen by xterm.js's headless emulator and compared with
 * the stored screens in screens/. Run alone: `npx vitest run test/unit/client/report-screen.test.ts`;
 * after a deliberate change of the layout, add `-u` and read the new screens before committing them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';

const HELPER = join(packageRoot, 'test', 'helpers', 'print-release-status.ts');
// eslint-disable-next-line no-control-regex -- the escape sequences written are what is checked
const SGR = /\u001b\[[0-9;]*m/g;
// eslint-disable-next-line no-control-regex -- ESC and the 8-bit CSI start every other sequence
const ESCAPE = /[\u001b\u009b]/;

/** What the helper writes to a pseudo-terminal of `columns` columns, raw (escape sequences and all). */
function inPseudoTerminal(columns: number, env: Record<string, string> = {}, format = 'text'): Promise<string> {
  const command = `stty cols ${columns} rows 200 && exec "${process.execPath}" --import tsx "${HELPER}" ${format}`;
  const { NO_COLOR: _, COLUMNS: __, ...inherited } = process.env;
  return new Promise((resolve, reject) =>
    execFile(
      'script',
      ['--quiet', '--return', '--command', command, '/dev/null'],
      { cwd: packageRoot, env: { ...inherited, TERM: 'xterm-256color', ...env }, timeout: 30_000, maxBuffer: 4 << 20 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

/** The screen a terminal of `columns` columns shows after `raw`: its lines, trailing blanks trimmed. */
async function screen(raw: string, columns: number): Promise<string> {
  const terminal = new xterm.Terminal({ cols: columns, rows: 200, allowProposedApi: true, convertEol: false });
  await new Promise<void>((resolve) => terminal.write(raw, resolve));
  const lines: string[] = [];
  for (let y = 0; y < terminal.buffer.active.length; y++)
    lines.push(terminal.buffer.active.getLine(y)?.translateToString(true) ?? '');
  terminal.dispose();
  return `${lines.join('\n').trimEnd()}\n`;
}

// Each case starts a process in a pseudo-terminal (about 2 s on a loaded machine).
describe('the release report in a terminal', { timeout: 30_000 }, () => {
  for (const columns of [80, 160]) {
    it(`fills a terminal of ${columns} columns as the stored screen shows, coloured with SGR sequences only`, async () => {
      const raw = await inPseudoTerminal(columns);
      expect(raw).toMatch(SGR); // it is coloured (high risk in red, headings bold)...
      expect(raw.replace(SGR, '')).not.toMatch(ESCAPE); // ...and colour is the only escape sequence
      // Every line was fitted by us, none relies on the terminal's own wrapping, except that a
      // link stays whole (a terminal opens it on click): without it, a line fits.
      const overlong = raw.split(/\r?\n/).filter((line) => stringWidth(line) > columns);
      for (const line of overlong) {
        expect(line).toMatch(/https?:\/\//);
        expect(stringWidth(line.replace(/https?:\/\/\S+/, ''))).toBeLessThanOrEqual(columns);
      }
      await expect(await screen(raw, columns)).toMatchFileSnapshot(`screens/release-report-${columns}.txt`);
    });
  }

  it('writes no escape sequence at all with NO_COLOR=1, and the same screen', async () => {
    const [plain, coloured] = await Promise.all([inPseudoTerminal(80, { NO_COLOR: '1' }), inPseudoTerminal(80)]);
    expect(plain).not.toMatch(ESCAPE);
    expect(await screen(plain, 80)).toBe(await screen(coloured, 80));
  });

  it('keeps the markdown source with --format markdown', async () => {
    const raw = await inPseudoTerminal(80, {}, 'markdown');
    expect(raw).not.toMatch(ESCAPE);
    expect(raw).toMatch(/^# Release report: payment-service 1\.4\.0 → 2\.0\.0\r?$/m);
    expect(raw).toMatch(/^\| node-sass \| \^7\.0\.3 \| sass \^1\.77\.0 \| high \|/m);
  });
});
