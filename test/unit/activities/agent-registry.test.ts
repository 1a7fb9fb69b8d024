import { describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../../activities/agent-registry.js';

describe('AgentRegistry.locate by URL', () => {
  const registry = new AgentRegistry(
    { agents: { compat: { url: 'http://agent.test/a2a', auth: { type: 'bearer', tokenEnv: 'TOKEN' } } } },
    { TOKEN: 't0ken-value' },
  );

  it('gives a URL the entry (and so the credential) of the entry with the same URL, ignoring trailing slashes and the card path', () => {
    for (const url of [
      'http://agent.test/a2a',
      'http://agent.test/a2a///',
      'http://agent.test/a2a/.well-known/agent-card.json',
    ]) {
      expect(registry.locate(url).entry?.auth).toEqual({ type: 'bearer', tokenEnv: 'TOKEN' });
    }
    expect(registry.locate('http://agent.test/other').entry).toBeUndefined();
  });

  it('compares a URL of 200,000 slashes in linear time (no backtracking regex)', () => {
    const hostile = `http://agent.test/${'/'.repeat(200_000)}x`;
    expect(registry.locate(hostile).entry).toBeUndefined();
    expect(registry.locate(`http://agent.test/a2a${'/'.repeat(200_000)}`).entry).toBeDefined();
  });
});
