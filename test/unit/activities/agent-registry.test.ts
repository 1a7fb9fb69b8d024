import { describe, expect, it } from 'vitest';
import { OutboundRefusedError } from '../../../a2a/security-errors.js';
import { join } from 'node:path';
import { AgentRegistry, loadAgentRegistry } from '../../../activities/agent-registry.js';
import { packageRoot } from '../../../platform/paths.js';

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

describe('AgentRegistry.locate with agents by URL turned off', () => {
  const registry = new AgentRegistry({ agents: { compat: { url: 'http://agent.test/a2a' } } }, {}, 'agents.json', {
    agentsByUrl: false,
  });

  it("refuses a stranger's URL non-retryably, but still takes the URL of an entry", () => {
    expect(() => registry.locate('https://agents.example.com/')).toThrow(OutboundRefusedError);
    expect(() => registry.locate('https://agents.example.com/')).toThrow(/A2A_AGENTS_BY_URL=false/);
    expect(registry.locate('http://agent.test/a2a/').entry?.url).toBe('http://agent.test/a2a');
  });

  it('trusts entries with loopback, and checks strangers named by URL for their addresses', async () => {
    const open = new AgentRegistry({ agents: { local: { url: 'http://127.0.0.1:4000' } } }, {});
    await expect(open.locate('local').policy.check('http://127.0.0.1:4000/a2a')).resolves.toEqual({
      credentials: true,
    });
    await expect(open.locate('http://127.0.0.1:4001').policy.check('http://127.0.0.1:4001/')).rejects.toThrow(
      'may not reach a loopback address',
    );
  });
});

describe('the agents files shipped', () => {
  it.each(['agents.json', 'deploy/agents.compose.json'])(
    '%s is valid and its agents pass the outbound policy',
    async (file) => {
      const registry = loadAgentRegistry(join(packageRoot, file), {});
      for (const name of registry.names()) {
        const { url, policy } = registry.locate(name);
        await expect(policy.check(url), `${file}: ${name}`).resolves.toEqual({ credentials: true });
      }
    },
  );
});
