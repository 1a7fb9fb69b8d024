import { describe, expect, it } from 'vitest';
import { parseTargetNode } from '../../../../agents/dependency-compat/node-version.js';

describe('parseTargetNode', () => {
  it.each([
    ['Node.js 24', 24],
    ['node 22', 22],
    ['Node 24', 24],
    ['target node v24', 24],
    ['Please check payment-service against NodeJS 20.11.1 before the release', 20],
    ['upgrade to node24', 24],
  ])('reads %j as Node.js %i', (text, major) => {
    expect(parseTargetNode(text)).toBe(major);
  });

  it.each(['24', 'v24', ' 24.1 ', '24.'])('reads the bare answer %j only when answering the question', (text) => {
    expect(parseTargetNode(text)).toBeUndefined();
    expect(parseTargetNode(text, { bare: true })).toBe(24);
  });

  it.each(['Analyse payment-service', 'we run 3 replicas', 'Node.js is great', 'node 0'])(
    'finds no version in %j',
    (text) => {
      expect(parseTargetNode(text, { bare: true })).toBeUndefined();
    },
  );
});
