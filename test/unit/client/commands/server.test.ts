import { describe, expect, it } from 'vitest';
import { portsFromEnvironment } from '../../../../client/commands/server.js';

describe('portsFromEnvironment', () => {
  it('takes the ports of TEMPORAL_ADDRESS and A2A_TEMPORAL_UI_URL when they name this machine', () => {
    expect(
      portsFromEnvironment({ TEMPORAL_ADDRESS: '127.0.0.1:7300', A2A_TEMPORAL_UI_URL: 'http://localhost:8300' }),
    ).toEqual({ port: 7300, uiPort: 8300 });
    expect(portsFromEnvironment({ TEMPORAL_ADDRESS: '[::1]:7301' })).toEqual({ port: 7301 });
  });

  it('ignores remote addresses, addresses without a port and values that are not addresses', () => {
    expect(
      portsFromEnvironment({
        TEMPORAL_ADDRESS: 'payments.a1b2c.tmprl.cloud:7233',
        A2A_TEMPORAL_UI_URL: 'http://ui:8080',
      }),
    ).toEqual({});
    expect(portsFromEnvironment({ A2A_TEMPORAL_UI_URL: 'http://127.0.0.1' })).toEqual({});
    expect(portsFromEnvironment({ TEMPORAL_ADDRESS: 'not an address' })).toEqual({});
    expect(portsFromEnvironment({})).toEqual({});
  });
});
