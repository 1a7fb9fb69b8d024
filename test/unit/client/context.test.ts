import { afterEach, describe, expect, it } from 'vitest';
import { uiBaseUrl, workflowUrl } from '../../../client/context.js';
import type { TemporalTarget } from '../../../platform/temporal-config.js';

function target(address: string, extra: Partial<TemporalTarget['connectionOptions']> = {}): TemporalTarget {
  return { address, namespace: 'default', connectionOptions: { address, ...extra } };
}

describe('uiBaseUrl', () => {
  const saved = process.env.A2A_TEMPORAL_UI_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.A2A_TEMPORAL_UI_URL;
    else process.env.A2A_TEMPORAL_UI_URL = saved;
  });

  it('takes --ui-url, then A2A_TEMPORAL_UI_URL, over anything it could work out', () => {
    process.env.A2A_TEMPORAL_UI_URL = 'http://localhost:8080/';
    expect(uiBaseUrl(undefined, target('temporal:7233'))).toBe('http://localhost:8080');
    expect(uiBaseUrl('https://ui.example.com', target('temporal:7233'))).toBe('https://ui.example.com');
  });

  it("links to Temporal Cloud's UI when the profile points at Temporal Cloud", () => {
    delete process.env.A2A_TEMPORAL_UI_URL;
    expect(uiBaseUrl(undefined, target('payments.a1b2c.tmprl.cloud:7233', { tls: true }))).toBe(
      'https://cloud.temporal.io',
    );
    expect(uiBaseUrl(undefined, target('us-east-1.aws.api.temporal.io:7233', { apiKey: 'k' }))).toBe(
      'https://cloud.temporal.io',
    );
  });

  it('guesses the frontend port + 1000 only for the embedded server on loopback without TLS', () => {
    delete process.env.A2A_TEMPORAL_UI_URL;
    expect(uiBaseUrl(undefined, target('localhost:7233'))).toBe('http://127.0.0.1:8233');
    expect(uiBaseUrl(undefined, target('127.0.0.1:7233', { tls: true }))).toBeUndefined();
    expect(uiBaseUrl(undefined, target('temporal:7233'))).toBeUndefined();
    expect(uiBaseUrl(undefined, target('temporal.internal.example.com:7233'))).toBeUndefined();
  });
});

describe('workflowUrl', () => {
  it('has no link when the UI is unknown, and escapes ids when it is known', () => {
    expect(workflowUrl({ uiBase: undefined, namespace: 'default' }, 'a')).toBeUndefined();
    expect(workflowUrl({ uiBase: 'https://cloud.temporal.io', namespace: 'ns.acct' }, 'release-x/compat')).toBe(
      'https://cloud.temporal.io/namespaces/ns.acct/workflows/release-x%2Fcompat',
    );
  });
});
