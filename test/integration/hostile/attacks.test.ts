import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS, EXECUTED_ATTACKS, PENDING_ATTACKS } from '../../hostile/attacks.js';
import { useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { expectContained, leakForms, runAttack, startRig, type HostileRig } from './support.js';

const temporal = useTemporal();
let rig: HostileRig | undefined;
/** Name → outcome → time to the end → the worker's peak RSS over idle, printed once at the end for the record. */
const measured: string[] = [];

beforeAll(async () => {
  rig = await startRig(
    temporal,
    EXECUTED_ATTACKS.map((name) => ATTACKS.get(name)!),
  );
});
afterAll(async () => {
  await rig?.close();
  if (measured.length)
    console.info(`hostile attacks (name → outcome → time to the end → worker RSS idle/peak):\n${measured.join('\n')}`);
});

describe('the hostile attack registry', () => {
  it('runs every attack it lists, except the pending ones, which each name what they wait for', () => {
    for (const name of ATTACKS.keys())
      expect(EXECUTED_ATTACKS.includes(name) !== name in PENDING_ATTACKS, name).toBe(true);
    for (const [name, why] of Object.entries(PENDING_ATTACKS)) {
      expect(ATTACKS.has(name), `pending "${name}" is an attack`).toBe(true);
      expect(why.length, name).toBeGreaterThan(0);
    }
  });
});

describe('a delegation to a hostile agent', () => {
  it.each(EXECUTED_ATTACKS)('contains %s', async (name) => {
    const attack = ATTACKS.get(name)!;
    const outcome = await runAttack(rig!, attack);
    const { idle, peak } = outcome.rssMb;
    measured.push(
      `${name} → ${outcome.code} → ${(outcome.elapsedMs / 1000).toFixed(2)} s → ${idle.toFixed(0)}/${peak.toFixed(0)} MB`,
    );
    await expectContained(rig!, attack, outcome);
  });

  it('exported no credential in any span, once every span is in', async () => {
    // Spans are exported in batches: wait until none has come for a second.
    let count = -1;
    await waitFor(
      () => {
        const settled = rig!.spans.spans.length === count;
        count = rig!.spans.spans.length;
        return settled;
      },
      { what: 'the last spans', intervalMs: 1_000 },
    );
    const text = `${JSON.stringify(rig!.spans.spans)}\n${rig!.spans.rawBodies.map((b) => b.toString('latin1')).join('\n')}`;
    expect(rig!.spans.spans.length).toBeGreaterThan(0);
    for (const form of rig!.secrets.flatMap(leakForms))
      expect(text.includes(form), 'a credential in a span').toBe(false);
  });
});
