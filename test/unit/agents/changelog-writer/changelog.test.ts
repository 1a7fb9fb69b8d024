import { describe, expect, it } from 'vitest';
import { changelogChunks, parseChangelogRequest } from '../../../../agents/changelog-writer/changelog.js';

const text = (chunks: ReturnType<typeof changelogChunks>) =>
  chunks
    .flat()
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');

describe('the changelog', () => {
  it('accepts dependency changes as a map, a from/to list or compatibility findings', () => {
    const fromMap = parseChangelogRequest({ service: 's', from: '1', to: '2', dependencies: { express: '^5.1.0' } });
    const fromList = parseChangelogRequest({
      service: 's',
      from: '1',
      to: '2',
      dependencies: [{ name: 'express', from: '^4', to: '^5.1.0' }],
    });
    const fromFindings = parseChangelogRequest({
      service: 's',
      from: '1',
      to: '2',
      dependencies: [{ name: 'express', current: '^4', suggested: '^5.1.0', reason: 'maintained line' }],
    });
    expect(fromMap.ok && fromMap.request.dependencies).toEqual([
      { name: 'express', from: undefined, to: '^5.1.0', note: undefined },
    ]);
    expect(fromList.ok && fromList.request.dependencies).toEqual([
      { name: 'express', from: '^4', to: '^5.1.0', note: undefined },
    ]);
    expect(fromFindings.ok && fromFindings.request.dependencies).toEqual([
      { name: 'express', from: '^4', to: '^5.1.0', note: 'maintained line' },
    ]);
  });

  it.each([
    [undefined, 'no data part'],
    [{ from: '1', to: '2' }, '"service" is missing'],
    [
      { service: 's', from: '1', to: '2', dependencies: [{ name: 'x' }] },
      '"dependencies[0]" needs a "name" and a "to"',
    ],
  ])('says what is wrong with %j', (value, problem) => {
    const result = parseChangelogRequest(value);
    expect(result.ok ? '' : result.problem).toContain(problem);
  });

  it('renders three markdown chunks: heading, dependency updates, upgrade notes', () => {
    const parsed = parseChangelogRequest({
      service: 'payment-service',
      from: '1.4.0',
      to: '1.5.0',
      dependencies: { express: '^5.1.0' },
    });
    if (!parsed.ok) throw new Error(parsed.problem);
    const chunks = changelogChunks(parsed.request);
    expect(chunks).toHaveLength(3);
    expect(text(chunks)).toMatch(
      /^# payment-service 1\.5\.0\n\n_Changes since 1\.4\.0\._[\s\S]*- \*\*express\*\*: \^5\.1\.0[\s\S]*## Upgrade notes/,
    );
  });
});
