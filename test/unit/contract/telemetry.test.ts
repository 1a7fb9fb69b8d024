import { describe, expect, it } from 'vitest';
import { agentLabel } from '../../../contract/telemetry.js';

describe('agentLabel', () => {
  it('keeps a name, and a URL without user info, query or fragment', () => {
    expect(agentLabel('compat')).toBe('compat');
    expect(agentLabel('https://user:pass@agent.example:8443/a2a?key=s3cret#x')).toBe('https://agent.example:8443/a2a');
    expect(agentLabel('http://agent.example?token=t')).toBe('http://agent.example');
  });

  it('bounds the length of what it returns', () => {
    expect(agentLabel(`http://a.example/${'p'.repeat(500)}`)).toHaveLength(120);
  });
});
