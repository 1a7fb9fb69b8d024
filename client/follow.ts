/**
 * Follows a release or a delegation live: phase and state changes, questions, and artifact
 * text as it streams in (read from the tracking activity's heartbeat, so history stays small).
 * Used by `watch`, `--follow` and the demo.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { grpcCode, GrpcStatus } from '../platform/grpc-status.js';
import type { CliContext } from './context.js';
import { readStatus, type QuestionView, type StatusView } from './status-view.js';
import { terminalJson } from './terminal-text.js';
import type { Terminal } from './terminal.js';

export interface FollowOptions {
  terminal: Terminal;
  /** Print events as JSON lines instead of text. */
  json?: boolean;
  /** @default 400 */
  intervalMs?: number;
  /** Stops following (the promise rejects with an AbortError). */
  signal?: AbortSignal;
  /** Called once per new question (e.g. to prompt for the answer). */
  onQuestion?: (question: QuestionView, view: StatusView) => Promise<void>;
  /** Called once when the release waits for approval. */
  onApproval?: (view: StatusView) => Promise<void>;
  /**
   * Whose artifact text streams in full; the others get one line when they complete.
   * @default a delegation's own artifacts, and a release's analysis (`compat`, `compat-sorted`)
   */
  streams?: (label: string | undefined, view: StatusView) => boolean;
}

/**
 * How long following goes on while the server does not answer (a call past its deadline, a lost
 * connection): a link that drops for a while must not end a watch, one gone for good ends it.
 */
const SERVER_PATIENCE_MS = 60_000;

/** The server did not answer this time (deadline, connection lost): worth asking again. */
function serverSilent(err: unknown): boolean {
  const code = grpcCode(err);
  return code === GrpcStatus.DEADLINE_EXCEEDED || code === GrpcStatus.UNAVAILABLE;
}

const streamsByDefault = (label: string | undefined, view: StatusView) =>
  view.kind === 'delegation' || label === 'compat' || label === 'compat-sorted';

type FollowEvent =
  | { type: 'phase'; phase: string }
  | { type: 'state'; workflowId: string; label?: string; state: string }
  | { type: 'question'; question: QuestionView }
  | { type: 'artifact'; workflowId: string; label?: string; artifactId: string; name?: string; text: string }
  | { type: 'result'; workflowId: string; label?: string; artifactId: string; name?: string; characters: number }
  | { type: 'end'; status: string; view: StatusView };

/** Follows `workflowId` until it closes; resolves to its last view. */
export async function follow(context: CliContext, workflowId: string, options: FollowOptions): Promise<StatusView> {
  const { terminal } = options;
  const seenQuestions = new Set<string>();
  const states = new Map<string, string>();
  const printed = new Map<string, number>();
  let lastArtifact = '';
  let phase = '';
  let approvalAsked = false;
  const started = Date.now();

  const emit = (event: FollowEvent) => {
    if (options.json) return terminal.line(terminalJson(event));
    if (event.type !== 'artifact') lastArtifact = ''; // after other news, a streaming artifact gets its header again
    switch (event.type) {
      case 'phase':
        return terminal.line(`▸ ${event.phase}`);
      case 'state':
        return terminal.line(`  ${event.label ?? event.workflowId}: ${event.state}`);
      case 'question':
        return terminal.line(
          `\n? ${event.question.label ?? 'agent'} asks (task ${event.question.taskId}):\n${indent(event.question.text)}\n`,
        );
      case 'artifact': {
        const key = `${event.workflowId}#${event.artifactId}`;
        if (key !== lastArtifact)
          terminal.line(`\n── ${event.label ?? 'agent'} · ${event.name ?? event.artifactId} ──`);
        lastArtifact = key;
        return terminal.write(event.text);
      }
      case 'result':
        return terminal.line(
          `  ${event.label ?? 'agent'}: ${event.name ?? event.artifactId} ready (${event.characters} characters)`,
        );
      case 'end': {
        // A release ends with its outcome; a failure with its reason (one line: the typed failure's sentence).
        const why = event.view.outcome ?? event.view.error?.split('\n', 1)[0];
        return terminal.line(`\n■ ${event.view.kind} ${event.status.toLowerCase()}${why ? `: ${why}` : ''}`);
      }
    }
  };

  let silentSince: number | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    let view: StatusView;
    try {
      view = await readStatus(context, workflowId);
      silentSince = undefined;
    } catch (err) {
      silentSince ??= Date.now();
      if (!serverSilent(err) || Date.now() - silentSince > SERVER_PATIENCE_MS) throw err;
      const since = new Date(silentSince).toISOString().slice(11, 19);
      terminal.setStatus(`the Temporal server has not answered since ${since}Z; still asking`);
      await sleep(options.intervalMs ?? 400, undefined, { signal: options.signal });
      continue;
    }
    if (view.phase !== phase) {
      phase = view.phase;
      emit({ type: 'phase', phase });
    }
    for (const d of view.delegations) {
      if (d.state && states.get(d.workflowId) !== d.state) {
        states.set(d.workflowId, d.state);
        emit({ type: 'state', workflowId: d.workflowId, label: d.label, state: d.state });
      }
      const streamed = (options.streams ?? streamsByDefault)(d.label, view);
      for (const artifact of d.artifacts) {
        const key = `${d.workflowId}#${artifact.artifactId}`;
        const done = printed.get(key) ?? 0;
        if (streamed && artifact.text.length > done) {
          emit({
            type: 'artifact',
            workflowId: d.workflowId,
            label: d.label,
            artifactId: artifact.artifactId,
            name: artifact.name,
            text: artifact.text.slice(done),
          });
          printed.set(key, artifact.text.length);
        } else if (!streamed && done === 0 && d.phase === 'completed') {
          emit({
            type: 'result',
            workflowId: d.workflowId,
            label: d.label,
            artifactId: artifact.artifactId,
            name: artifact.name,
            characters: artifact.text.length,
          });
          printed.set(key, artifact.text.length);
        }
      }
    }
    for (const question of view.questions) {
      const key = `${question.workflowId}#${question.taskId}#${question.text}`;
      if (seenQuestions.has(key)) continue;
      seenQuestions.add(key);
      emit({ type: 'question', question });
      await options.onQuestion?.(question, view);
    }
    if (view.phase === 'awaiting-approval' && !approvalAsked) {
      approvalAsked = true;
      await options.onApproval?.(view);
    }
    if (view.status !== 'RUNNING') {
      terminal.stopStatus();
      emit({ type: 'end', status: view.status, view });
      return view;
    }
    const waiting = view.questions.length ? ` · ${view.questions.length} question(s) waiting` : '';
    terminal.setStatus(`${view.kind} ${view.phase}${waiting} · ${Math.round((Date.now() - started) / 1000)} s`);
    await sleep(options.intervalMs ?? 400, undefined, { signal: options.signal });
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
