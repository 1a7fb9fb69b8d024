import { describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../../activities/index.js';
import { CliError } from '../../../client/cli-error.js';
import { checkAgentNames } from '../../../client/start-options.js';

describe('checkAgentNames', () => {
  const registry = new AgentRegistry({ agents: { compat: { url: 'http://127.0.0.1:4000' } } });

  it('takes names of the agents file and URLs', () => {
    expect(() => checkAgentNames(registry, ['compat', 'https://agents.example.com/a2a'])).not.toThrow();
    expect(() => checkAgentNames(undefined, ['anything'])).not.toThrow();
  });

  it('refuses a URL with user info before anything is started, without printing the password', () => {
    for (const reg of [registry, undefined]) {
      let error: unknown;
      try {
        checkAgentNames(reg, ['https://deploy:hunter2-secret@agents.example.com/a2a']);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).message).toMatch(/user info.*put the credential in the agents file/);
      expect((error as CliError).message).not.toContain('hunter2');
    }
  });
});
