/**
 * Follows a release or a delegation live: phase and state changes, questions, and artifact
 * text as it streams in (read from the tracking activity's heartbeat, so history stays small).
 * Used by `watch`, `--follow` and the demo.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FileSummary } from '../contract/index.js';
import { grpcCode, GrpcStatus } from '../platform/grpc-status.js';
import type { CliContext } from './context.js';
import { MarkdownBlocks } from './markdown-blocks.js';
import { renderMarkdown } from './markdown-terminal.js';
import type { OutputFormat } from './output-format.js';
import { fileText } from './render-status.js';
import { readStatus, type QuestionView, type StatusView } from './status-view.js';
import { indentLines, oneLine, terminalJson } from './terminal-text.js';
import type { Terminal } from './terminal.js';

export interface FollowOptions {
  terminal: Terminal;
  /**
   * `text`: artifact markdown rendered block by block for the terminal; `markdown`: its source as
   * it streams; `json`: one JSON event per line. @default 'text'
   */
  format?: OutputFormat;
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
  | { type: 'file'; workflowId: string; label?: string; artifactId: string; file: FileSummary }
  | { type: 'end'; status: string; view: StatusView };

/** Follows `workflowId` until it closes; resolves to its last view. */
export async function follow(context: CliContext, workflowId: string, options: FollowOptions): Promise<StatusView> {
  const { terminal } = options;
  const seenQuestions = new Set<string>();
  const states = new Map<string, string>();
  const printed = new Map<string, number>();
  /** Files by artifact and position, with what was last shown of them (size, stored). */
  const shownFiles = new Map<string, string>();
  let lastArtifact = '';
  let phase = '';
  let approvalAsked = false;
  const started = Date.now();
  const format = options.format ?? 'text';
  const streaming = new Map<string, { blocks: MarkdownBlocks; label?: string; name: string; printed: boolean }>();

  const header = (key: string, label: string | undefined, name: string) => {
    if (key !== lastArtifact) terminal.line(`\n── ${oneLine(label ?? 'agent')} · ${oneLine(name)} ──`);
    lastArtifact = key;
  };
  /** Prints the finished blocks of an artifact's markdown (all of it when `final`). */
  const renderBlocks = (key: string, label: string | undefined, name: string, text: string, final: boolean) => {
    const stream = streaming.get(key) ?? { blocks: new MarkdownBlocks(), label, name, printed: false };
    streaming.set(key, stream);
    const ready = stream.blocks.push(text) + (final ? stream.blocks.rest() : '');
    if (!ready.trim()) return;
    // Blocks go out one render at a time: the blank line between two of them is ours to print.
    if (stream.printed && key === lastArtifact) terminal.line();
    header(key, label, name);
    terminal.rendered(renderMarkdown(ready, terminal.style));
    stream.printed = true;
  };
  /** The last block of each artifact whose delegation has ended (or of all, at the end). */
  const flushBlocks = (ended: (key: string) => boolean) => {
    for (const [key, { label, name }] of streaming) if (ended(key)) renderBlocks(key, label, name, '', true);
  };

  const emit = (event: FollowEvent) => {
    if (format === 'json') return terminal.line(terminalJson(event));
    if (event.type !== 'artifact') lastArtifact = ''; // after other news, a streaming artifact gets its header again
    switch (event.type) {
      case 'phase':
        return terminal.line(`▸ ${event.phase}`);
      case 'state':
        return terminal.line(`  ${oneLine(event.label ?? event.workflowId)}: ${oneLine(event.state)}`);
      case 'question':
        return terminal.line(
          `\n? ${oneLine(event.question.label ?? 'agent')} asks (task ${oneLine(event.question.taskId)}):\n  ${indentLines(event.question.text, '  ')}\n`,
        );
      case 'artifact': {
        const key = `${event.workflowId}#${event.artifactId}`;
        if (format === 'text') return renderBlocks(key, event.label, event.name ?? event.artifactId, event.text, false);
        header(key, event.label, event.name ?? event.artifactId);
        return terminal.write(event.text);
      }
      case 'result':
        return terminal.line(
          `  ${oneLine(event.label ?? 'agent')}: ${oneLine(event.name ?? event.artifactId)} ready (${event.characters} characters)`,
        );
      case 'file':
        return terminal.line(`  ${oneLine(event.label ?? 'agent')}: ${fileText(event.file)}`);
      case 'end': {
        // A release ends with its outcome; a failure with its reason (one line: the typed failure's sentence).
        const why = event.view.outcome ?? event.view.error?.split('\n', 1)[0];
        return terminal.line(`\n■ ${event.view.kind} ${event.status.toLowerCase()}${why ? `: ${oneLine(why)}` : ''}`);
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
        for (const [i, file] of artifact.files.entries()) {
          const seen = `${key}#${i}`;
          const shown = `${file.size}${file.stored ? ' stored' : ''}`;
          if (shownFiles.get(seen) === shown) continue;
          shownFiles.set(seen, shown);
          emit({ type: 'file', workflowId: d.workflowId, label: d.label, artifactId: artifact.artifactId, file });
        }
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
        } else if (!streamed && done === 0 && d.phase === 'completed' && !artifact.files.length) {
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
    const ended = view.delegations.filter((d) => d.status !== 'RUNNING').map((d) => `${d.workflowId}#`);
    flushBlocks((key) => ended.some((prefix) => key.startsWith(prefix)));
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
      flushBlocks(() => true);
      terminal.stopStatus();
      emit({ type: 'end', status: view.status, view });
      return view;
    }
    const waiting = view.questions.length ? ` · ${view.questions.length} question(s) waiting` : '';
    terminal.setStatus(`${view.kind} ${view.phase}${waiting} · ${Math.round((Date.now() - started) / 1000)} s`);
    await sleep(options.intervalMs ?? 400, undefined, { signal: options.signal });
  }
}
