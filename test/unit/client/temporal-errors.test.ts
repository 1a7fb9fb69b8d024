import { describe, expect, it } from 'vitest';
import { explainTemporalError } from '../../../client/temporal-errors.js';

const where = { address: 'payments.a1b2c.tmprl.cloud:7233', namespace: 'payments.a1b2c' };

/** Errors shaped as @temporalio/client raises them: its own wrapper, the gRPC error as `cause`. */
function wrapped(message: string, code: number, details: string): Error {
  const grpc = Object.assign(new Error(`${code} ${details}`), { code, details });
  return new Error(message, { cause: grpc });
}

describe('explainTemporalError', () => {
  it('turns a permission-denied refusal into one sentence naming the namespace and the credentials to check', () => {
    const err = wrapped('Failed to start Workflow', 7, 'PERMISSION_DENIED: Request unauthorized.');
    expect(explainTemporalError(err, where)?.message).toBe(
      'The Temporal server at payments.a1b2c.tmprl.cloud:7233 refused the request for namespace payments.a1b2c (permission denied: Request unauthorized): check the API key (TEMPORAL_API_KEY) or client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH) of your environment or --profile, and that it may use this namespace.',
    );
  });

  it('says unauthenticated when the server did not accept the credentials at all', () => {
    const err = Object.assign(new Error('Invalid API key'), { code: 16 });
    expect(explainTemporalError(err, where)?.message).toMatch(
      /^The Temporal server at \S+ refused the request for namespace payments\.a1b2c \(unauthenticated: Invalid API key\): /,
    );
  });

  it('names the search attribute the namespace lacks and the command that registers them', () => {
    const err = wrapped(
      'Failed to start Workflow',
      3,
      'INVALID_ARGUMENT: Namespace payments.a1b2c has no mapping defined for search attribute ReleasePhase',
    );
    expect(explainTemporalError(err, where)?.message).toBe(
      "Namespace payments.a1b2c on payments.a1b2c.tmprl.cloud:7233 has no search attribute ReleasePhase, which a2a-temporal's workflows set: register them all with `a2a-temporal setup --namespace payments.a1b2c`.",
    );
  });

  it('says a call past its deadline was not answered within the wait, and how to wait longer, not that the server cannot be reached', () => {
    const err = wrapped('Failed to query Workflow', 4, 'DEADLINE_EXCEEDED: Deadline exceeded after 15.001s');
    const message = explainTemporalError(err, { ...where, waitS: 15 })?.message;
    expect(message).toMatch(/^The Temporal server at payments\.a1b2c\.tmprl\.cloud:7233 did not answer within 15 s: /);
    expect(message).toContain('--connect-timeout <seconds> (env A2A_TEMPORAL_CONNECT_TIMEOUT)');
    expect(message).not.toMatch(/cannot reach/i);
  });

  it('leaves other failures alone', () => {
    expect(
      explainTemporalError(wrapped('Failed to start Workflow', 6, 'ALREADY_EXISTS: started'), where),
    ).toBeUndefined();
  });
});
