import { describe, expect, it } from 'vitest';
import {
  ArtifactAssembler,
  applyArtifactUpdate,
  artifactSetFromTask,
  artifactText,
  emptyArtifactSet,
  isArtifactSetComplete,
  type ArtifactSet,
  type TaskArtifactUpdateEvent,
} from '../../../a2a/index.js';
import { ArtifactGapError, ResponseTooLargeError } from '../../../a2a/errors.js';
import { chunkPosition } from '../../../a2a/artifacts.js';

function chunk(
  text: string,
  flags: { append?: boolean; lastChunk?: boolean } = {},
  artifactId = 'report',
): TaskArtifactUpdateEvent {
  return {
    taskId: 'T',
    contextId: 'C',
    artifact: { artifactId, name: 'compatibility-report', parts: [{ text }] },
    ...flags,
  };
}

const c1 = chunk('# Report\n');
const c2 = chunk('node-sass: high\n', { append: true });
const c3 = chunk('express: low\n', { append: true, lastChunk: true });

function applyAll(set: ArtifactSet, ...updates: TaskArtifactUpdateEvent[]): ArtifactSet {
  return updates.reduce((s, u) => applyArtifactUpdate(s, u), set);
}

describe('applyArtifactUpdate', () => {
  it('assembles three chunks into one artifact with three parts, as the SDK stores them', () => {
    const set = applyAll(emptyArtifactSet(), c1, c2, c3);
    expect(set.artifacts).toHaveLength(1);
    expect(set.artifacts[0]?.parts).toEqual([
      { text: '# Report\n' },
      { text: 'node-sass: high\n' },
      { text: 'express: low\n' },
    ]);
    expect(artifactText(set.artifacts[0]!)).toBe('# Report\nnode-sass: high\nexpress: low\n');
    expect(set.lastChunk).toEqual({ report: true });
    expect(isArtifactSetComplete(set)).toBe(true);
  });

  it('returns a new set and leaves its inputs untouched', () => {
    const before = applyAll(emptyArtifactSet(), c1);
    const snapshot = structuredClone(before);
    const after = applyArtifactUpdate(before, c2);
    expect(before).toEqual(snapshot);
    expect(after).not.toBe(before);
    c2.artifact.parts.push({ text: 'mutated later' });
    expect(after.artifacts[0]?.parts).toHaveLength(2);
    c2.artifact.parts.pop();
  });

  it('replaces the artifact on a chunk without append', () => {
    const set = applyAll(emptyArtifactSet(), c1, c2, chunk('rewritten'));
    expect(set.artifacts[0]?.parts).toEqual([{ text: 'rewritten' }]);
    expect(set.lastChunk.report).toBe(false);
  });

  it('keeps artifacts apart by artifactId, in first-seen order', () => {
    const set = applyAll(emptyArtifactSet(), c1, chunk('other', {}, 'sorted'), c2);
    expect(set.artifacts.map((a) => [a.artifactId, a.parts.length])).toEqual([
      ['report', 2],
      ['sorted', 1],
    ]);
    expect(isArtifactSetComplete(set)).toBe(false);
  });

  it('treats an append to an unknown artifact as its first chunk', () => {
    expect(applyAll(emptyArtifactSet(), c2).artifacts[0]?.parts).toEqual([{ text: 'node-sass: high\n' }]);
  });

  it('produces plain JSON', () => {
    const set = applyAll(emptyArtifactSet(), c1, c2, c3);
    expect(JSON.parse(JSON.stringify(set))).toEqual(set);
  });
});

describe('chunk positions make replays idempotent', () => {
  it('gives each chunk the index of its first part', () => {
    let set = emptyArtifactSet();
    const positions: number[] = [];
    for (const c of [c1, c2, c3]) {
      positions.push(chunkPosition(set, c));
      set = applyArtifactUpdate(set, c);
    }
    expect(positions).toEqual([0, 1, 2]);
  });

  it('ignores a chunk applied twice at its position', () => {
    const once = applyAll(emptyArtifactSet(), c1, c2);
    const twice = applyArtifactUpdate(once, c2, 1);
    expect(twice).toEqual(once);
  });

  it('ignores replays of earlier chunks after the last one, without forgetting lastChunk', () => {
    const done = applyAll(emptyArtifactSet(), c1, c2, c3);
    const replayed = applyArtifactUpdate(applyArtifactUpdate(applyArtifactUpdate(done, c1, 0), c2, 1), c3, 2);
    expect(replayed).toEqual(done);
  });

  it('still truncates on a genuine replacement at position 0', () => {
    const done = applyAll(emptyArtifactSet(), c1, c2, c3);
    const replaced = applyArtifactUpdate(done, chunk('new start'), 0);
    expect(replaced.artifacts[0]?.parts).toEqual([{ text: 'new start' }]);
  });

  it('throws ArtifactGapError when a chunk would land beyond the end', () => {
    const set = applyAll(emptyArtifactSet(), c1);
    expect(() => applyArtifactUpdate(set, c3, 2)).toThrow(ArtifactGapError);
    try {
      applyArtifactUpdate(set, c3, 2);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'ARTIFACT_GAP',
        retryable: false,
        artifactId: 'report',
        position: 2,
        have: 1,
      });
      expect((error as Error).message).toMatchInlineSnapshot(
        `"Artifact "report" received a chunk at part 2 but only 1 part is known; re-read the task with GetTask and continue from its artifacts."`,
      );
    }
  });
});

describe('artifactSetFromTask (resuming from a snapshot)', () => {
  it('continues a resumed stream from the snapshot without duplicating text', () => {
    // The stream broke after chunk 2; the resubscribe starts with a Task snapshot holding both.
    const snapshot = artifactSetFromTask({
      id: 'T',
      status: { state: 'TASK_STATE_WORKING' },
      artifacts: [{ artifactId: 'report', parts: [{ text: '# Report\n' }, { text: 'node-sass: high\n' }] }],
    });
    expect(snapshot.lastChunk).toEqual({ report: false });
    const resumed = applyArtifactUpdate(snapshot, c3, chunkPosition(snapshot, c3));
    expect(artifactText(resumed.artifacts[0]!)).toBe('# Report\nnode-sass: high\nexpress: low\n');
    // A chunk seen before the break and replayed by the caller is a no-op at its position.
    expect(applyArtifactUpdate(resumed, c2, 1)).toEqual(resumed);
  });

  it('marks the artifacts of a terminal task complete', () => {
    const set = artifactSetFromTask({
      id: 'T',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ artifactId: 'a', parts: [] }],
    });
    expect(isArtifactSetComplete(set)).toBe(true);
  });

  it('starts empty for a task without artifacts', () => {
    expect(artifactSetFromTask({ id: 'T', status: { state: 'TASK_STATE_SUBMITTED' } })).toEqual(emptyArtifactSet());
  });
});

describe('artifactText', () => {
  it('concatenates text parts and skips the others', () => {
    expect(
      artifactText({ artifactId: 'a', parts: [{ text: 'a' }, { data: { x: 1 } }, { url: 'http://x' }, { text: 'b' }] }),
    ).toBe('ab');
  });
});

describe('ArtifactAssembler', () => {
  it('assembles the same set as applyArtifactUpdate, in place', () => {
    const assembler = new ArtifactAssembler();
    for (const c of [c1, chunk('other', {}, 'sorted'), c2, c3]) assembler.apply(c, assembler.position(c));
    expect(assembler.set).toEqual(applyAll(emptyArtifactSet(), c1, chunk('other', {}, 'sorted'), c2, c3));
  });

  it('assembles 100,000 events in steps linear in the events (one lookup and one part write each)', () => {
    const limits = { maxArtifactsPerTask: 50_001, maxPartsPerArtifact: 50_000 };
    const assembler = new ArtifactAssembler(limits);
    for (let i = 0; i < 100_000; i++) {
      // Half one-part artifacts of their own, half appends to one long artifact: the two quadratic cases of before.
      const update = i % 2 === 0 ? chunk(`a${i}`, {}, `artifact-${i}`) : chunk(`b${i}`, { append: true }, 'long');
      assembler.apply(update, assembler.position(update));
    }
    expect(assembler.set.artifacts).toHaveLength(50_001);
    expect(assembler.set.artifacts.find((a) => a.artifactId === 'long')?.parts).toHaveLength(50_000);
    // At most three steps per event: position() looks an append's artifact up, apply() looks it up and writes its one part.
    expect(assembler.steps).toBeLessThanOrEqual(3 * 100_000);
  });

  it('refuses the artifact past maxArtifactsPerTask and the part past maxPartsPerArtifact, changing nothing', () => {
    const assembler = new ArtifactAssembler({ maxArtifactsPerTask: 2, maxPartsPerArtifact: 2 });
    assembler.apply(c1);
    assembler.apply(c2);
    assembler.apply(chunk('x', {}, 'second'));
    expect(() => assembler.apply(chunk('y', {}, 'third'))).toThrow(ResponseTooLargeError);
    expect(() => assembler.apply(c3)).toThrow(
      expect.objectContaining({ code: 'RESPONSE_TOO_LARGE', limit: 'maxPartsPerArtifact', max: 2 }),
    );
    expect(assembler.set.artifacts.map((a) => [a.artifactId, a.parts.length])).toEqual([
      ['report', 2],
      ['second', 1],
    ]);
    expect(() => applyArtifactUpdate(emptyArtifactSet(), c1, undefined, { maxPartsPerArtifact: 0 })).toThrow(
      ResponseTooLargeError,
    );
  });

  it('keeps an artifact named __proto__ as a plain entry', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(chunk('x', { lastChunk: true }, '__proto__'));
    expect(Object.getPrototypeOf(assembler.set.lastChunk)).toBe(Object.prototype);
    expect(Object.keys(assembler.set.lastChunk)).toEqual(['__proto__']);
    expect(isArtifactSetComplete(assembler.set)).toBe(true);
  });

  it('starts again from a task snapshot', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(c1);
    assembler.snapshot({
      id: 'T',
      status: { state: 'TASK_STATE_WORKING' },
      artifacts: [{ artifactId: 'report', parts: [{ text: '# Report\n' }, { text: 'node-sass: high\n' }] }],
    });
    assembler.apply(c3, assembler.position(c3));
    expect(artifactText(assembler.set.artifacts[0]!)).toBe('# Report\nnode-sass: high\nexpress: low\n');
  });
});
