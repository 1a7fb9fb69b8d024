/**
 * What stream and poll mode's turns share: one activity sends the message and follows its task
 * for a first round. A message is never sent twice: the heartbeat names the task once the agent
 * has named it (a retry follows that task), and when the send left (`sentAt`), so a retry first
 * looks for the task our message id created — until that send's request timeout has passed — and
 * adopts it. A delegation's first turn may be given its agent by name only: the turn resolves it
 * from its card first (what the `resolveAgent` local activity does, without its own workflow
 * activation) and returns what it resolved.
 */
import { Context, log } from '@temporalio/activity';
import type { A2AClient, Message } from '../a2a/index.js';
import type { AgentTarget, ResolvedAgent, StatusKey } from '../contract/delegation-types.js';
import { clientFor, endpointOf, type ActivityDeps } from './deps.js';
import { asActivity, finalFailure } from './failures.js';
import { heartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { isTransient, type Reachability } from './reachability.js';
import { resolveCard } from './resolve-agent.js';
import { takeOverFromLastAttempt } from './sticky-takeover.js';
import { awaitEarlierSend, sentAtOf } from './send-message.js';
import type { TaskView, TrackOutcome, TrackProgress } from './task-outcome.js';
import {
  followerOf,
  progressOf,
  resumeFollowing,
  withReachability,
  type Follower,
  type FollowEnd,
  type RoundSettings,
} from './track-task.js';

export interface TurnInput extends RoundSettings {
  /** By name only in a delegation's first turn: the turn resolves it (see `resolved` in its outcome). */
  agent: AgentTarget;
  /** The complete message, ids included: they come from the workflow, so every retry sends the same ones. */
  message: Message;
  acceptedOutputModes?: string[];
  /** The question the message answers: the task showing it again has not decided anything new. */
  handled?: StatusKey;
}

/**
 * A turn ends with the agent's direct reply, or with the task decided (or still running at the
 * round's end); `resolved`: the agent, when the turn was given its name only.
 */
export type TurnOutcome = ({ kind: 'message'; message: Message } | ({ kind: 'task' } & TrackOutcome)) & {
  resolved?: ResolvedAgent;
};

/** One attempt of a turn: the task as an earlier attempt saw it, and when a send of our message left. */
export class Turn {
  readonly view: TaskView;
  readonly reach: Reachability;
  /** When an earlier attempt's send left (its heartbeat details): until its request timeout, it may still create its task. */
  private earlierSentAt: number | undefined;
  /** When the last send of our message left (this attempt's, else the earlier attempt's). */
  sentAt: number | undefined;

  constructor(
    private readonly deps: ActivityDeps,
    readonly input: TurnInput,
  ) {
    const { message } = input;
    ({ view: this.view, reach: this.reach } = resumeFollowing(deps, input, {
      ...(message.taskId ? { taskId: message.taskId } : {}),
      ...(message.contextId ? { contextId: message.contextId } : {}),
    }));
    this.earlierSentAt = sentAtOf(Context.current().info.heartbeatDetails);
    this.sentAt = this.earlierSentAt;
  }

  /** The heartbeat details (and a cancellation's or final failure's): what was seen, and when the send left. */
  readonly details = (): TrackProgress & { sentAt?: number } => ({
    ...progressOf(this.view, this.reach),
    ...(this.sentAt === undefined ? {} : { sentAt: this.sentAt }),
  });

  /**
   * Looks for the task an earlier send of our message created (waiting for it while that send
   * may still create it) and adopts it into {@link view}. @returns whether it found one.
   */
  async adoptEarlierSend(client: A2AClient, signal: AbortSignal): Promise<boolean> {
    const { message } = this.input;
    const existing = await awaitEarlierSend(client, message, this.earlierSentAt, this.deps.requestTimeoutMs, signal);
    this.earlierSentAt = undefined; // a failure within this attempt tells whether the send got through
    if (!existing) return false;
    log.info('adopted the task our message created earlier', { taskId: existing.id, messageId: message.messageId });
    await this.view.read(existing);
    return true;
  }
}

/**
 * Runs one attempt of a turn: `follow` sends and follows with the agent's client, while the turn
 * heartbeats what it has seen. A cancellation or a final failure carries the same in its details,
 * so the workflow learns the task id (and what was received) even then.
 */
export function runTurn(
  deps: ActivityDeps,
  input: TurnInput,
  follow: (turn: Turn, follower: Follower) => Promise<FollowEnd>,
): Promise<TurnOutcome> {
  const takeover = takeOverFromLastAttempt();
  // A copy: a first turn fills in the endpoint it resolves, before any task is read.
  const agent: AgentTarget = { ...input.agent };
  const turn = new Turn(deps, { ...input, agent });
  return asActivity(
    agent.name,
    async () => {
      const heartbeats = heartbeating(turn.details);
      try {
        const resolved = agent.endpoint ? undefined : await resolveFor(deps, turn, agent.name);
        if (resolved) agent.endpoint = resolved.endpoint;
        const client = await clientFor(deps, { name: agent.name, endpoint: endpointOf(agent) });
        const end = await follow(turn, followerOf(deps, client, input, turn, heartbeats.beat));
        const offloaded = deps.offloadsPayloads;
        const outcome =
          end.kind === 'message'
            ? withinPayloadLimit(end, agent.name, 'its direct reply', offloaded)
            : withinPayloadLimit(
                { kind: 'task' as const, ...withReachability(end.outcome, turn.reach) },
                agent.name,
                `task ${turn.view.task.id}`,
                offloaded,
              );
        return resolved ? { ...outcome, resolved } : outcome;
      } finally {
        heartbeats.stop();
        await takeover;
      }
    },
    turn.details,
  );
}

/**
 * The agent of a first turn, resolved from its card. A card the agent does not serve counts
 * against the turn's unreachable budget, as a send it does not answer would.
 */
async function resolveFor(deps: ActivityDeps, turn: Turn, name: string): Promise<ResolvedAgent> {
  const { reach } = turn;
  const { cancellationSignal } = Context.current();
  for (;;) {
    const askedAt = reach.asking('GetAgentCard');
    try {
      const resolved = await resolveCard(deps, name, cancellationSignal);
      reach.answered();
      return resolved;
    } catch (err) {
      if (!isTransient(err)) throw err;
      // Asked to wait longer than the delegation gives a silent agent: rate-limited, not unreachable.
      if (err.retryAfterMs !== undefined && err.retryAfterMs >= reach.leftMs()) throw finalFailure(err, name);
      await reach.failed(err, askedAt);
    }
  }
}
