/**
 * What a delegation shows outside itself: search attributes (so the UI's list can be filtered
 * to "waiting for input") and the current details (markdown in the UI's workflow page).
 */
import {
  CancellationScope,
  getExternalWorkflowHandle,
  log,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Artifact } from '../../a2a/index.js';
import { artifactRefOf, fileLink, fileSummaryOf, sizeText } from '../../contract/artifact-ref.js';
import type { DelegationNotice, DelegationStatus, ResumeState } from '../../contract/delegation-types.js';
import { delegationChangedSignal } from '../../contract/messages.js';
import { problemLine } from '../../contract/problem-line.js';
import { A2A_AGENT, A2A_TASK_ID, A2A_TASK_STATE } from '../../contract/search-attributes.js';
import { markdownCode, markdownInline, markdownLines } from '../markdown-text.js';
import type { Carry } from './carry.js';

/** The search attributes a delegation publishes, as last upserted (or wanted). */
interface Shown {
  agent?: string;
  taskId?: string;
  state?: string;
}

const FINAL_PHASES = new Set(['completed', 'failed', 'canceled']);
/** The most characters of an artifact's text the details quote; the rest is in the result. */
const TEXT_SHOWN = 1500;
/** The most artifacts the details show. */
const ARTIFACTS_SHOWN = 20;

/**
 * Publishes `status`: search attributes, the UI's current details, and — for a child delegation
 * — a notice to the parent when a question appears or goes away, the task id becomes known, or
 * the delegation ends. Each upsert is a history event, so search attributes are upserted only
 * when they differ from what the workflow already has (including what its starter set, e.g.
 * `A2aAgent`), and at most once per activation: the changes of one activation (task adopted,
 * working, question asked) go out together — at the end of the {@link DelegationPublisher.batch}
 * they happen in, else when the activation's microtasks run.
 */
export class DelegationPublisher {
  private shown: Shown;
  private latest: DelegationStatus | undefined;
  /** A status published and not flushed yet. */
  private dirty = false;
  /** A flush is queued as a microtask. */
  private queued = false;
  /** Batches running: their publishes go out when the outermost ends. */
  private batches = 0;
  private noticed = '';
  private sent: number;
  /** Settled once, made on the first queued flush: each queued flush is one reaction to it (the SDK captures a stack trace for every promise a workflow creates). */
  private settled: Promise<void> | undefined;

  /** `resume`: what a previous run of this delegation published (the parent keeps counting notices; continue-as-new keeps search attributes, read from `workflowInfo()`). */
  constructor(resume?: Pick<ResumeState, 'noticesSent'>) {
    const attributes = workflowInfo().typedSearchAttributes;
    this.shown = {
      agent: attributes.get(A2A_AGENT),
      taskId: attributes.get(A2A_TASK_ID),
      state: attributes.get(A2A_TASK_STATE),
    };
    this.sent = resume?.noticesSent ?? 0;
  }

  carried(): Carry<'noticesSent'> {
    return { noticesSent: this.sent };
  }

  publish(status: DelegationStatus): void {
    this.notifyParent(status);
    this.latest = status;
    this.dirty = true;
    if (this.batches || this.queued) return;
    this.queued = true;
    // Runs before the activation completes (its microtasks all run first), after every
    // transition of this activation, and before the command that ends the run.
    void (this.settled ??= Promise.resolve()).then(() => {
      this.queued = false;
      this.flush();
    });
  }

  /**
   * Runs `work` and publishes what it changed once, when it returns or throws, without the
   * microtask a publish otherwise queues. `work` is a stretch that ends where the workflow
   * waits, returns or throws, so its changes go out where a queued flush would put them.
   */
  batch<T>(work: () => T): T {
    this.batches++;
    try {
      return work();
    } finally {
      if (--this.batches === 0) this.flush();
    }
  }

  /** The last status, once: search attributes that changed, and the UI's details. */
  private flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const status = this.latest!;
    this.upsertChanged({ agent: status.agent, taskId: status.taskId, state: shownState(status) });
    setCurrentDetails(delegationDetails(status, workflowInfo().workflowId));
  }

  private upsertChanged(next: Shown): void {
    const { shown } = this;
    const updates = [
      next.agent !== shown.agent && next.agent ? { key: A2A_AGENT, value: next.agent } : undefined,
      next.taskId !== shown.taskId && next.taskId ? { key: A2A_TASK_ID, value: next.taskId } : undefined,
      next.state !== shown.state && next.state ? { key: A2A_TASK_STATE, value: next.state } : undefined,
    ].filter((u) => u !== undefined);
    if (updates.length) {
      upsertSearchAttributes(updates);
      this.shown = next;
    }
  }

  private notifyParent(status: DelegationStatus): void {
    const parent = workflowInfo().parent;
    const final = FINAL_PHASES.has(status.phase);
    const key = `${status.taskId}|${status.question?.messageId ?? status.question?.askedAt ?? ''}|${final ? status.phase : ''}`;
    if (!parent || key === this.noticed) return;
    this.noticed = key;
    const { artifacts: _artifacts, kind: _kind, ...rest } = status;
    const notice: DelegationNotice = { ...rest, workflowId: workflowInfo().workflowId, seq: ++this.sent };
    // Not cancellable: the last notice of a cancelled delegation (phase canceled) must still go out.
    CancellationScope.nonCancellable(() =>
      getExternalWorkflowHandle(parent.workflowId).signal(delegationChangedSignal, notice),
    ).catch((err: unknown) =>
      log.info('the parent workflow did not take the notice (it may have ended)', { error: String(err) }),
    );
  }
}

/**
 * The task state the UI's list shows: INPUT_REQUIRED / AUTH_REQUIRED only while the delegation
 * waits for an answer; once answered the agent is (about to be) working again, even if the last
 * state read still says it asked.
 */
function shownState(status: DelegationStatus): string | undefined {
  if (status.phase === 'waiting-for-input') return status.question?.state;
  const asked = status.state === 'TASK_STATE_INPUT_REQUIRED' || status.state === 'TASK_STATE_AUTH_REQUIRED';
  return asked && (status.phase === 'sending' || status.phase === 'working') ? 'TASK_STATE_WORKING' : status.state;
}

/** The markdown the Temporal UI shows as the delegation's current details (agent text escaped). */
export function delegationDetails(status: DelegationStatus, workflowId: string): string {
  const agent = markdownInline(status.agent);
  const lines = [
    `**Delegation to ${status.label ? `${markdownInline(status.label)} (${agent})` : agent}**${status.mode ? ` · ${status.mode} mode` : ''}`,
    '',
    `Phase: **${status.phase}**${status.taskId ? ` · task ${markdownCode(status.taskId)}` : ''}${status.state ? ` · ${status.state}` : ''}`,
  ];
  if (status.rounds) lines.push(`Answers given: ${status.rounds}`);
  // The line `status` prints, as the workflow last learned it (attempts and the next try are live in `status`).
  if (status.unreachable)
    lines.push(
      '',
      `**${markdownInline(problemLine({ kind: 'agent-unreachable', activity: '', ...status.unreachable }))}**`,
    );
  if (status.question) {
    lines.push(
      '',
      `### The agent needs ${status.question.state === 'TASK_STATE_AUTH_REQUIRED' ? 'authorization' : 'input'}`,
      '',
      ...markdownLines(status.question.text).map((l) => `> ${l}`),
      '',
      `Answer: \`a2a-temporal answer ${workflowId} "<your answer>"\``,
    );
  }
  if (status.error) lines.push('', `**Failed:** ${markdownInline(status.error)}`);
  if (status.artifacts.length) {
    const more = status.artifacts.length - ARTIFACTS_SHOWN;
    lines.push('', '### Artifacts', '', ...status.artifacts.slice(0, ARTIFACTS_SHOWN).flatMap(artifactLines));
    if (more > 0) lines.push(`… and ${more} more: \`a2a-temporal artifacts ${workflowId}\``);
  }
  return lines.join('\n');
}

/**
 * One artifact in the details: its text quoted (the first {@link TEXT_SHOWN} characters), each
 * stored file as a link to the codec server's download (see {@link fileLink}), a file still
 * arriving by its size so far. Agent text escaped; only references we wrote become links.
 */
function artifactLines(artifact: Artifact): string[] {
  const lines = [`**${markdownInline(artifact.name ?? artifact.artifactId)}**`, ''];
  const text = artifact.parts.map((p) => (artifactRefOf(p) ? '' : ((p as { text?: string }).text ?? ''))).join('');
  if (text.trim()) {
    const shown = text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text;
    lines.push(...markdownLines(shown).map((l) => `> ${l}`), '');
  }
  for (const part of artifact.parts) {
    const ref = artifactRefOf(part);
    const file = fileSummaryOf(part);
    if (ref)
      lines.push(
        `- [${markdownInline(ref.name)}](${fileLink(ref)}) · ${markdownInline(ref.mediaType)} · ${sizeText(ref.size)}`,
      );
    else if (file)
      lines.push(`- ${markdownInline(file.name)} · ${markdownInline(file.mediaType)} · ${sizeText(file.size)} so far`);
  }
  return lines.at(-1) === '' ? lines : [...lines, ''];
}
