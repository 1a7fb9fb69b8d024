import { Parser, type Node } from 'commonmark';
import { describe, expect, it } from 'vitest';
import type { DelegationStatus } from '../../../contract/delegation-types.js';
import { delegationDetails } from '../../../workflows/delegate/delegation-ui.js';
import { markdownCode, markdownInline, markdownLines } from '../../../workflows/markdown-text.js';
import { buildReleaseReport } from '../../../workflows/release/release-report.js';
import type { ReleaseStatus } from '../../../contract/release-types.js';
import { releaseDetails } from '../../../workflows/release/release-ui.js';

/** What an agent could send to turn our details into its own markup. */
const HOSTILE = [
  '[click here](https://evil.example/steal)',
  '![pixel](https://evil.example/p.png)',
  '<img src=x onerror=alert(1)>',
  '<https://evil.example>',
  '[ref]: https://evil.example "title"',
  '# Heading',
  '   ### indented heading',
  '- bullet',
  '+ plus',
  '* star',
  '1. first',
  '12) twelfth',
  '> quoted',
  '```js',
  '~~~',
  '***',
  '**bold** _em_ ~~strike~~ `code`',
  'a | b | c',
  '\\[already escaped](x)',
  '&lt;script&gt; &#91;x&#93;(y)',
];

/** Every node type of a parsed document, in order (adjacent text nodes counted once). */
function nodeTypes(markdown: string): string[] {
  const types: string[] = [];
  const walker = new Parser().parse(markdown).walker();
  for (let step = walker.next(); step; step = walker.next()) {
    if (step.entering && !(step.node.type === 'text' && types.at(-1) === 'text')) types.push(step.node.type);
  }
  return types;
}

/** A paragraph does not show the indentation of its lines. */
const unindented = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trimStart())
    .join('\n');

/** The text a reader sees: every literal of the document, soft breaks as newlines. */
function shownText(node: Node): string {
  let out = '';
  const walker = node.walker();
  for (let step = walker.next(); step; step = walker.next()) {
    if (!step.entering) continue;
    if (step.node.type === 'softbreak') out += '\n';
    else if (step.node.literal && step.node.type !== 'code_block') out += step.node.literal;
  }
  return out;
}

const MARKUP = ['link', 'image', 'html_inline', 'html_block', 'heading', 'list', 'thematic_break', 'code_block'];

describe('markdownInline', () => {
  it.each(HOSTILE)('shows %j as the literal text it is, after other text in a paragraph', (text) => {
    const markdown = `Failed: ${markdownInline(text)}`;
    expect(nodeTypes(markdown)).toEqual(['document', 'paragraph', 'text']);
    expect(shownText(new Parser().parse(markdown))).toBe(`Failed: ${text}`);
  });

  it('turns line breaks into spaces, so nothing after them starts a block', () => {
    const text = 'fine\n# Heading\r\n- item\r[x](y)';
    expect(markdownInline(text)).not.toMatch(/[\r\n]/);
    expect(shownText(new Parser().parse(`Failed: ${markdownInline(text)}`))).toBe(
      'Failed: fine # Heading - item [x](y)',
    );
  });

  it('leaves ordinary text, versions and ranges as they were sent', () => {
    for (const text of ['Which Node.js version should I target? (e.g. 20 or 22)', '1.4.0 → 2.0.0', '>=18 <21', 'a & b'])
      expect(markdownInline(text)).toBe(text);
  });
});

describe('markdownLines', () => {
  it('keeps the lines of a question, every one literal inside a block quote', () => {
    const text = HOSTILE.join('\n');
    const markdown = markdownLines(text)
      .map((l) => `> ${l}`)
      .join('\n');
    const types = nodeTypes(markdown);
    expect(types.filter((t) => MARKUP.includes(t))).toEqual([]);
    expect(types.filter((t) => t === 'block_quote')).toHaveLength(1);
    expect(shownText(new Parser().parse(markdown))).toBe(unindented(text));
  });

  it('does not let a line underline the one before into a heading', () => {
    for (const underline of ['===', '---', '  - - -']) {
      const markdown = markdownLines(`Title\n${underline}`).join('\n');
      expect(nodeTypes(markdown)).not.toContain('heading');
      expect(nodeTypes(markdown)).not.toContain('thematic_break');
    }
  });
});

describe('markdownCode', () => {
  it.each(['task-1', 'a`b', '``x``', '`lead', 'trail`', 'x](y) <b> # h'])('shows %j as one code span', (text) => {
    const types = nodeTypes(`task ${markdownCode(text)} here`);
    expect(types).toEqual(['document', 'paragraph', 'text', 'code', 'text']);
    const walker = new Parser().parse(`task ${markdownCode(text)} here`).walker();
    let code = '';
    for (let step = walker.next(); step; step = walker.next()) if (step.node.type === 'code') code = step.node.literal!;
    expect(code).toBe(text);
  });

  it('cannot be broken out of with a blank line', () => {
    expect(nodeTypes(`task ${markdownCode('x\n\n# Heading')}`)).not.toContain('heading');
  });
});

const question = HOSTILE.join('\n');
const hostile = HOSTILE.join(' ');

describe('the Temporal UI details', () => {
  it('of a delegation show an agent question and error without any markup of the agent', () => {
    const status: DelegationStatus = {
      kind: 'delegation',
      agent: 'compat',
      label: 'compat',
      phase: 'waiting-for-input',
      taskId: 'task-`](x)',
      contextId: 'ctx',
      rounds: 0,
      artifacts: [],
      question: { taskId: 'task-1', state: 'TASK_STATE_INPUT_REQUIRED', text: question, askedAt: '' },
      error: hostile,
    };
    const markdown = delegationDetails(status, 'wf-1');
    const types = nodeTypes(markdown);
    expect(types.filter((t) => MARKUP.includes(t))).toEqual(['heading']); // ours: "The agent needs input"
    expect(shownText(new Parser().parse(markdown))).toContain(unindented(question));
    expect(shownText(new Parser().parse(markdown))).toContain(`Failed: ${hostile}`);
  });

  it("of a finished delegation quote an artifact's text and link only the files we stored, whatever their names", () => {
    const sha256 = 'a'.repeat(64);
    const name = 'x) [evil](https://evil.example) ](blobs/y';
    const status: DelegationStatus = {
      kind: 'delegation',
      agent: 'changelog',
      phase: 'completed',
      contextId: 'ctx',
      rounds: 0,
      artifacts: [
        { artifactId: 'a1', name: '[n](https://evil.example)', parts: [{ text: question }] },
        {
          artifactId: 'a2',
          parts: [
            {
              text: '',
              filename: name,
              metadata: {
                'a2aTemporal.artifactRef': { name, mediaType: 'text/x)', size: 3, sha256, key: `sha256:${sha256}` },
              },
            },
            { text: '', metadata: { 'a2aTemporal.artifactRef': { name: 'forged', key: 'sha256:bad' } } },
          ],
        },
      ] as DelegationStatus['artifacts'],
    };
    const markdown = delegationDetails(status, 'wf-1');
    const links: string[] = [];
    const walker = new Parser().parse(markdown).walker();
    for (let e = walker.next(); e; e = walker.next())
      if (e.entering && e.node.type === 'link') links.push(e.node.destination!);
    expect(links).toEqual([
      `blobs/sha256:${sha256}?name=${encodeURIComponent(name).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))}&type=text%2Fx%29`,
    ]);
    expect(shownText(new Parser().parse(markdown))).toContain(unindented(question));
    expect(nodeTypes(markdown).filter((t) => ['image', 'html_inline', 'html_block'].includes(t))).toEqual([]);
  });

  it('of a release show questions, findings and reasons without any markup of the agents', () => {
    const status: ReleaseStatus = {
      kind: 'release',
      releaseId: 'release-1',
      service: 'payment-service',
      fromVersion: '1.4.0',
      toVersion: '2.0.0',
      phase: 'waiting-for-input',
      delegations: [],
      questions: [
        { workflowId: 'd-1', label: 'compat', taskId: '`t`', state: 'TASK_STATE_INPUT_REQUIRED', text: question },
      ],
      reason: hostile,
      report: {
        markdown: '',
        service: 'payment-service',
        fromVersion: '1.4.0',
        toVersion: '2.0.0',
        dependencies: [
          { name: '[x](https://evil.example)', risk: '# high', current: '<b>1</b>', suggested: '![i](j)' },
        ],
        sortedByAgent: true,
        analysis: { label: 'compat', agent: 'compat', workflowId: 'd-1', outcome: 'completed', summary: '' },
        checks: [],
      },
    } as unknown as ReleaseStatus;
    const types = nodeTypes(releaseDetails(status));
    // Ours: the "Waiting for your answer" and "Report" headings, and the findings list.
    expect(types.filter((t) => MARKUP.includes(t))).toEqual(['heading', 'heading', 'list']);
    expect(types).not.toContain('link');
  });

  it('of the release report show findings and summaries without any markup of the agents', () => {
    const failure = { type: 'A2A_TASK_FAILED', message: question };
    const report = buildReleaseReport(
      { service: 'payment-service', fromVersion: '1.4.0', toVersion: '2.0.0' },
      { label: 'compat', agent: 'compat', workflowId: 'd-1', failure },
      undefined,
      [{ label: 'license', agent: 'license', workflowId: 'd-2', failure: { message: `${hostile}\n<b>x</b>` } }],
    );
    const types = nodeTypes(report.markdown);
    // Ours: the report's three headings; tables are not CommonMark, so they parse as paragraphs.
    expect(types.filter((t) => MARKUP.includes(t))).toEqual(['heading', 'heading', 'heading']);
  });
});

describe('hidden characters in the UI details', () => {
  it('are shown as <U+XXXX>, in text and in code spans', () => {
    expect(markdownInline('Approve \u202eexe.txt')).toBe('Approve \\<U+202E>exe.txt');
    expect(markdownCode('id\u200b1')).toBe('`id<U+200B>1`');
    expect(markdownLines('a\u2028b')).toEqual(['a\\<U+2028>b']);
  });
});
