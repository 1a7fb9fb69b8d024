import { Role } from '@a2a-js/sdk';
import type { Message } from '@a2a-js/sdk';
import { dataOf, metadataString, textOf } from '../shared/parts.js';
import type { Scenario } from '../shared/scenario.js';
import { looksLikeManifest, parseManifest, type Manifest } from '../shared/manifest.js';
import { parseTargetNode } from './node-version.js';

/** Ids the agent stores in `metadata.question` of its questions, to recognise the answers later. */
export const QUESTIONS = {
  targetNode: 'target-node',
  packageManager: 'package-manager',
  registryAuth: 'registry-auth',
} as const;

const MANIFEST_EXAMPLE = '{"name":"payment-service","dependencies":{"express":"^4.18.2"}}';

/** What the conversation of one task has established so far. */
export interface CompatConversation {
  /** The latest manifest-like data part sent by the user (else the latest data part at all). */
  manifestData: unknown;
  targetNode: number | undefined;
  packageManager: string | undefined;
  /** The user answered the AUTH_REQUIRED question. */
  registryAuthorized: boolean;
}

/**
 * Replays a task's messages, oldest first. A user message that follows one of the agent's
 * questions answers it, so a bare "24" counts as the Node.js version only right after that
 * question; elsewhere the version must be named ("Node.js 24").
 */
export function readConversation(messages: readonly Message[]): CompatConversation {
  const state: CompatConversation = {
    manifestData: undefined,
    targetNode: undefined,
    packageManager: undefined,
    registryAuthorized: false,
  };
  let anyData: unknown;
  let pendingQuestion: string | undefined;
  for (const message of messages) {
    if (message.role === Role.ROLE_AGENT) {
      pendingQuestion = metadataString(message, 'question') ?? pendingQuestion;
      continue;
    }
    if (message.role !== Role.ROLE_USER) continue;
    for (const data of dataOf(message)) {
      anyData = data;
      if (looksLikeManifest(data)) state.manifestData = data;
    }
    const text = textOf(message);
    state.targetNode = parseTargetNode(text, { bare: pendingQuestion === QUESTIONS.targetNode }) ?? state.targetNode;
    if (pendingQuestion === QUESTIONS.packageManager) state.packageManager = parsePackageManager(text);
    if (pendingQuestion === QUESTIONS.registryAuth) state.registryAuthorized = true;
    pendingQuestion = undefined;
  }
  state.manifestData ??= anyData;
  return state;
}

export type CompatStep =
  | { kind: 'fail'; reason: string }
  | { kind: 'ask'; questionId: string; question: string; auth: boolean }
  | { kind: 'analyse'; manifest: Manifest; targetNode: number; packageManager: string | undefined };

/** What the agent does next, given the conversation and the scenario switch. */
export function nextStep(conversation: CompatConversation, scenario: Scenario | undefined): CompatStep {
  const parsed = parseManifest(conversation.manifestData);
  if (!parsed.ok) {
    return {
      kind: 'fail',
      reason: `Cannot analyse the dependencies: ${parsed.problem}. Send a data part such as ${MANIFEST_EXAMPLE}.`,
    };
  }
  const { manifest } = parsed;
  const service = manifest.name ?? 'the service';
  if ((scenario === 'auth-required' || scenario === 'auth-out-of-band') && !conversation.registryAuthorized) {
    return {
      kind: 'ask',
      questionId: QUESTIONS.registryAuth,
      question: `Authorize access to the private npm registry so I can resolve ${service}'s private packages, then send any message to continue.`,
      auth: true,
    };
  }
  if (conversation.targetNode === undefined) {
    return {
      kind: 'ask',
      questionId: QUESTIONS.targetNode,
      question: `Which Node.js version should ${service} target? (for example: Node.js 24)`,
      auth: false,
    };
  }
  if (scenario === 'second-question' && conversation.packageManager === undefined) {
    return {
      kind: 'ask',
      questionId: QUESTIONS.packageManager,
      question: `Which package manager does ${service} use: npm or pnpm?`,
      auth: false,
    };
  }
  return {
    kind: 'analyse',
    manifest,
    targetNode: conversation.targetNode,
    packageManager: conversation.packageManager,
  };
}

/**
 * A message that references earlier tasks and brings no manifest of its own is a follow-up about
 * an earlier report; the only follow-up this agent offers is sorting its fix suggestions by risk.
 */
export function isReportFollowUp(message: Message): boolean {
  return message.referenceTaskIds.length > 0 && !dataOf(message).some(looksLikeManifest);
}

function parsePackageManager(text: string): string {
  const named = /\b(pnpm|npm|yarn|bun)\b/i.exec(text)?.[1];
  return named ? named.toLowerCase() : text.trim().slice(0, 40) || 'unspecified';
}
