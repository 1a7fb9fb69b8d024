/**
 * The hostile agent over gRPC: every attack of test/hostile/grpc-attacks.ts through the real
 * `delegate` workflow on a worker process, with the same containment checks as the HTTP attacks
 * (typed outcome in bounded time, no credential anywhere, no task left running, the worker alive
 * and completing an ordinary delegation right after).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { GRPC_ATTACKS, GRPC_RIG_REQUEST_TIMEOUT_MS } from '../../hostile/grpc-attacks.js';
import { useTemporal } from '../../helpers/temporal.js';
import { expectContained, runAttack, startRig, type HostileRig } from './support.js';

const temporal = useTemporal();
let rig: HostileRig | undefined;
const measured: string[] = [];

beforeAll(async () => {
  rig = await startRig(temporal, GRPC_ATTACKS, { A2A_REQUEST_TIMEOUT_MS: String(GRPC_RIG_REQUEST_TIMEOUT_MS) });
});
afterAll(async () => {
  await rig?.close();
  if (measured.length) console.info(`hostile gRPC attacks (name → outcome → time to the end):\n${measured.join('\n')}`);
});

describe('a delegation to a hostile gRPC agent', () => {
  it.each(GRPC_ATTACKS.map((a) => a.name))('contains %s', async (name) => {
    const attack = GRPC_ATTACKS.find((a) => a.name === name)!;
    const outcome = await runAttack(rig!, attack);
    measured.push(`${name} → ${outcome.code} → ${(outcome.elapsedMs / 1000).toFixed(2)} s`);
    await expectContained(rig!, attack, outcome);
  });
});
