import { Role } from '@a2a-js/sdk';
import type { Message } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  isReportFollowUp,
  nextStep,
  QUESTIONS,
  readConversation,
} from '../../../../agents/dependency-compat/conversation.js';
import { agentMessage, dataPart, textPart } from '../../../../agents/shared/parts.js';

const MANIFEST = { name: 'payment-service', dependencies: { express: '^4.18.2' } };

function user(text: string, data?: unknown, referenceTaskIds: string[] = []): Message {
  const parts = [textPart(text), ...(data === undefined ? [] : [dataPart(data)])];
  return {
    messageId: text,
    contextId: 'c',
    taskId: '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds,
  };
}

const question = (id: string) => agentMessage({ contextId: 'c', text: '?', metadata: { question: id } });

describe('readConversation', () => {
  it('takes a bare version only as the answer to the Node.js question', () => {
    expect(readConversation([user('Analyse', MANIFEST), user('24')]).targetNode).toBeUndefined();
    expect(readConversation([user('Analyse', MANIFEST), question(QUESTIONS.targetNode), user('24')]).targetNode).toBe(
      24,
    );
  });

  it('remembers answers across turns and reads the package manager and registry authorization', () => {
    const conversation = readConversation([
      user('Analyse', MANIFEST),
      question(QUESTIONS.registryAuth),
      user('granted'),
      question(QUESTIONS.targetNode),
      user('v22'),
      question(QUESTIONS.packageManager),
      user('we use PNPM'),
    ]);
    expect(conversation).toMatchObject({
      targetNode: 22,
      packageManager: 'pnpm',
      registryAuthorized: true,
      manifestData: MANIFEST,
    });
  });

  it('prefers the latest manifest-like data part', () => {
    const newer = { dependencies: { lodash: '^4.17.21' } };
    expect(readConversation([user('a', MANIFEST), user('b', { note: 'x' }), user('c', newer)]).manifestData).toBe(
      newer,
    );
    expect(readConversation([user('a', MANIFEST), user('b', { note: 'x' })]).manifestData).toBe(MANIFEST);
  });
});

describe('nextStep', () => {
  const base = { manifestData: MANIFEST, targetNode: undefined, packageManager: undefined, registryAuthorized: false };

  it('asks for the Node.js version, naming the service', () => {
    expect(nextStep(base, undefined)).toEqual({
      kind: 'ask',
      questionId: QUESTIONS.targetNode,
      question: 'Which Node.js version should payment-service target? (for example: Node.js 24)',
      auth: false,
    });
  });

  it('analyses once the version is known', () => {
    expect(nextStep({ ...base, targetNode: 24 }, undefined)).toMatchObject({ kind: 'analyse', targetNode: 24 });
  });

  it.each(['auth-required', 'auth-out-of-band'] as const)(
    'asks for registry authorization first in the %s scenario',
    (scenario) => {
      expect(nextStep({ ...base, targetNode: 24 }, scenario)).toMatchObject({
        kind: 'ask',
        questionId: QUESTIONS.registryAuth,
        auth: true,
      });
      expect(nextStep({ ...base, targetNode: 24, registryAuthorized: true }, scenario)).toMatchObject({
        kind: 'analyse',
      });
    },
  );

  it('asks for the package manager after the version in the second-question scenario', () => {
    expect(nextStep({ ...base, targetNode: 24 }, 'second-question')).toMatchObject({
      kind: 'ask',
      question: 'Which package manager does payment-service use: npm or pnpm?',
    });
  });

  it('fails without a usable manifest, before asking anything', () => {
    const step = nextStep({ ...base, manifestData: undefined }, 'auth-required');
    expect(step).toMatchObject({ kind: 'fail' });
    expect(step.kind === 'fail' ? step.reason : '').toContain('no dependency manifest');
  });
});

describe('isReportFollowUp', () => {
  it('is a message that references a task and brings no manifest', () => {
    expect(isReportFollowUp(user('sort by risk', undefined, ['t1']))).toBe(true);
    expect(isReportFollowUp(user('sort by risk'))).toBe(false);
    expect(isReportFollowUp(user('analyse this one too', MANIFEST, ['t1']))).toBe(false);
  });
});
