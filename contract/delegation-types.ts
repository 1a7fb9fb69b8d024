/**
 * The contract of one delegation: what a caller passes to the `delegate` workflow, what it
 * returns, and what its query shows while it runs. Plain JSON only: these live in history.
 */
import type { Duration } from '@temporalio/common';
import type {
  AgentCapabilities,
  Artifact,
  Message,
  Part,
  SelectedInterface,
  SupportedBinding,
  Task,
  TaskState,
} from '../a2a/index.js';

/** How the delegation follows the remote task; `auto` picks from the agent card's capabilities. See [docs/architecture.md](../docs/architecture.md#how-a-delegation-survives-crashes). */
export type TrackingMode = 'auto' | 'stream' | 'poll' | 'push';

/** The input of the `delegate` workflow: which agent, what to send, how to follow the task and how long to wait. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface DelegateInput {
  /**
   * The agent: a name from the worker's agents file (credentials are looked up there, inside
   * activities) or the agent's base URL. Never a credential.
   */
  agent: string;
  /** The request text; becomes the message's first part. */
  text?: string;
  /** More parts after the text, e.g. `{ data: manifest, mediaType: 'application/json' }`. */
  parts?: Part[];
  /** Continue an existing conversation (follow-up); a new one gets a workflow-generated id. */
  contextId?: string;
  /** Earlier tasks this request refers to (follow-ups after a task completed). */
  referenceTaskIds?: string[];
  /** @default 'auto' */
  mode?: TrackingMode;
  /**
   * Give up when nobody answers the agent's question within this time: the remote task is
   * canceled and the delegation fails with `A2A_INPUT_TIMEOUT`. @default no deadline
   */
  inputTimeout?: Duration;
  /**
   * The longest the whole delegation may take, from its start to the task's end (waits for
   * answers included). Past it the remote task is canceled and the delegation fails with
   * `A2A_DEADLINE_EXCEEDED`. @default none: a task is followed for as long as it works
   */
  deadline?: Duration;
  /** Media types the caller accepts in results. */
  acceptedOutputModes?: string[];
  /** Metadata of the first message (agent-specific switches). */
  metadata?: Record<string, unknown>;
  /** A short name shown in the UI and in a coordinator's status (e.g. `compat`). */
  label?: string;
  /** Tuning of the tracking activity; the defaults suit most agents. */
  tracking?: TrackingOptions;
  /** Set by the workflow itself when it continues as new; callers leave it out. */
  resume?: ResumeState;
}

/** How a delegation follows its remote task: round length, backoff, unreachable timeout and push wake-ups. See [docs/architecture.md](../docs/architecture.md#how-a-delegation-survives-crashes). */
export interface TrackingOptions {
  /** The tracking activity's heartbeat timeout: how fast a dead worker is noticed. Raise it above the round trip of a slow link to Temporal (docs/network-faults.md). @default '2.5 seconds' */
  heartbeatTimeout?: Duration;
  /** How long one tracking activity runs before it hands back (history grows per round only). @default '10 minutes' */
  roundTimeout?: Duration;
  /** First and largest pause between `GetTask` polls (poll mode); the pause grows by 1.5x. @default '200ms' / '5 seconds' */
  pollInitialInterval?: Duration;
  /** The largest pause between `GetTask` polls (see `pollInitialInterval`). */
  pollMaxInterval?: Duration;
  /** How long the agent may stay unreachable while resolving or sending before the delegation fails. @default '2 minutes' */
  unreachableTimeout?: Duration;
  /**
   * Push mode: how long the delegation waits for a notification before it reads the task anyway
   * (`GetTask`), so a lost delivery costs at most this much delay. @default '5 minutes'
   */
  pushSafetyNetInterval?: Duration;
  /**
   * Push mode: the most reads of the task a minute, however often the agent delivers (each read
   * adds to history). @default 30
   */
  pushWakeUpsPerMinute?: number;
}

/**
 * What the delegation carries across continue-as-new: everything a run reads when it resumes.
 * Every field is written by the run that continues (workflows/delegate/carry.ts makes a field
 * left out a compile error).
 */
export interface ResumeState {
  resolved: ResolvedAgent;
  taskId: string;
  contextId: string;
  /** Answers given so far. */
  rounds: number;
  /** How many questions the agent asked so far (question ids go on counting, also past questions the agent resumed by itself). */
  asked: number;
  /** The status already answered: seeing it again is not a new question. */
  handled?: StatusKey;
  /** The question waiting for an answer when the run continued: it goes on waiting under the same id. */
  question?: PendingQuestion;
  /** Push mode: the config registered at the agent for `taskId` (it ends with the task, or is deleted when the delegation leaves a task running). */
  pushConfigId?: string;
  /** When the delegation's deadline passes (epoch ms, workflow time). */
  deadlineAt?: number;
  /** The agent has not answered since then (epoch ms, the worker's clock). */
  unreachableSince?: number;
  /** Bytes the agent made this delegation drop so far (its byte budget goes on counting). */
  droppedBytes?: number;
  /** Notices sent to the parent so far: a parent ignores a notice numbered lower than one it has seen. */
  noticesSent?: number;
}

/** Where a delegation ended. `kind: 'message'` when the agent answered with a direct message. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface DelegateResult {
  /** The agent delegated to (the name the caller used, or the URL). */
  agent: string;
  /** Whether the agent answered with a task or a direct message. */
  kind: 'task' | 'message';
  /** The agent's context id: pass it to a follow-up delegation to continue the conversation. */
  contextId: string;
  /** The agent's task id (absent for a direct message). */
  taskId?: string;
  /** The task's final state (absent for a direct message). */
  state?: TaskState;
  /** The final task (no history), as the agent reported it. */
  task?: Task;
  /** The direct reply, when the agent answered without a task. */
  message?: Message;
  /** The task's artifacts, chunks assembled. */
  artifacts: Artifact[];
  /** How many times the agent asked for input and got an answer. */
  rounds: number;
}

/**
 * The agent as resolved once per delegation; recorded in history, so replays never refetch.
 * Only what the workflow and the activities need, bounded in size (a card can be a megabyte).
 */
export interface ResolvedAgent {
  /** The name the caller used (or the URL). */
  name: string;
  cardUrl: string;
  /** The card reduced to what the workflow reads. */
  card: ResolvedCard;
  endpoint: ResolvedEndpoint;
  /** The mode `auto` turns into for this agent and this worker. */
  autoMode: Exclude<TrackingMode, 'auto'>;
}

/** What the workflow reads from the card. */
export interface ResolvedCard {
  /** The card's name, at most 256 characters. */
  name: string;
  capabilities: Pick<AgentCapabilities, 'streaming' | 'pushNotifications' | 'extendedAgentCard'>;
  /** The card was signed and its signature verified with a configured key. */
  signed?: boolean;
}

/** The interface chosen, and what the card requires there (so every activity meets it the same way). */
export interface ResolvedEndpoint extends SelectedInterface {
  security?: EndpointSecurity;
}

/** The security requirement the worker will meet: bounded copies of what the card says about it. */
export interface EndpointSecurity {
  /** For messages: `scheme "oa" (OAuth 2.0 clientCredentials)`, at most 300 characters. */
  description: string;
  /** The token endpoint of the card's OAuth 2.0 client-credentials flow (used when the agents file names none). */
  tokenUrl?: string;
  /** The card's OpenID Connect discovery URL (likewise). */
  openIdConnectUrl?: string;
  /** Scopes the requirement lists (used when the agents file lists none). */
  scopes?: string[];
}

/** What activities need to reach an agent: never the card, never a credential. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface AgentRef {
  /** The name the caller used (or the URL). */
  name: string;
  /** The interface the delegation talks to. */
  endpoint: ResolvedEndpoint;
}

/**
 * The agent as a turn or a cancel takes it: resolved, or (a stream or poll delegation's first
 * turn) by name only, when the activity resolves it itself from its card and says what it found.
 */
export type AgentTarget = Pick<AgentRef, 'name'> & Partial<Pick<AgentRef, 'endpoint'>>;

/** Identifies one status of a task, so a question already answered is not asked twice. */
export interface StatusKey {
  state: TaskState;
  messageId?: string;
  timestamp?: string;
}

/** Where the delegation is, as its query and the CLI show it. See [docs/guide.md](../docs/guide.md#the-commands). */
export type DelegationPhase =
  'resolving' | 'sending' | 'working' | 'waiting-for-input' | 'canceling' | 'completed' | 'canceled' | 'failed';

/** A question an agent asked (input-required or auth-required) that waits for an answer. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface PendingQuestion {
  /** Identifies this question within its delegation (`q1`, `q2`, …): an answer names the question it answers. */
  id?: string;
  /** The agent's task that asks. */
  taskId: string;
  /** Why the task waits: for input, or for authorization. */
  state: 'TASK_STATE_INPUT_REQUIRED' | 'TASK_STATE_AUTH_REQUIRED';
  /** The agent's question, as text. */
  text: string;
  /** The agent's status message id (identifies this question). */
  messageId?: string;
  /** Workflow time when the question was published (ISO 8601). */
  askedAt: string;
}

/** What the `status` query of a delegation returns: its phase, task, question and artifacts so far. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface DelegationStatus {
  /** Always `delegation` (a release's status says `release`). */
  kind: 'delegation';
  /** The agent delegated to. */
  agent: string;
  /** Its label when it runs as a release's child (`compat`, `changelog`, …). */
  label?: string;
  /** Where the delegation is. */
  phase: DelegationPhase;
  /** How it follows the task: `stream`, `poll` or `push` (after resolve). */
  mode?: Exclude<TrackingMode, 'auto'>;
  /** The binding the delegation speaks to the agent (after resolve): `HTTP+JSON`, `JSONRPC` or `GRPC`. */
  binding?: SupportedBinding;
  /** The agent's context id (empty until the agent names it). */
  contextId: string;
  /** The agent's task id, once named. */
  taskId?: string;
  /** The task's A2A state, as last seen. */
  state?: TaskState;
  /** The question it waits on, while it does. */
  question?: PendingQuestion;
  /** How many answers it has given so far. */
  rounds: number;
  /** Assembled artifacts as of the last completed activity (live chunks: see the tracking heartbeat). */
  artifacts: Artifact[];
  /** Why it failed, when it did. */
  error?: string;
  /**
   * What became of our CancelTask, when the delegation canceled its remote task (a person's
   * cancel, the deadline, no answer in time, a failure): the task's state after it, or why the
   * agent refused it. The delegation ends the same way whatever the agent answers.
   */
  remoteCancel?: string;
  /**
   * The agent has not answered since `since` (ISO 8601), as the last tracking round saw it when it
   * ended (a round ends early when the agent goes silent or answers again): the line the UI's
   * current details show. `status` shows the live attempts. Cleared once the agent answers.
   */
  unreachable?: {
    /** Since when the agent has not answered (ISO 8601). */
    since: string;
    /** The last failure, in one line. */
    lastError: string;
    /** When the delegation gives up on the agent (ISO 8601). */
    givesUpAt: string;
  };
}

/** What a delegation running as a child tells its parent (signal `delegationChanged`): no artifacts. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export type DelegationNotice = Omit<DelegationStatus, 'artifacts' | 'kind'> & {
  /** The delegation's workflow id. */
  workflowId: string;
  /** Increases with every notice of this delegation: signals sent together may arrive out of order. */
  seq: number;
};

/**
 * Payload of the `taskUpdated` signal: the webhook receiver verified a push delivery for this
 * task. A hint only: the delegation then reads the task itself (`GetTask`), so duplicates and
 * out-of-order deliveries change nothing.
 */
export interface TaskUpdatedNotice {
  taskId: string;
  /** The state the delivery showed, when it showed one. */
  state?: TaskState;
  /** The id of the status message the delivery showed (it identifies a question). */
  messageId?: string;
  /** The kind of event the agent delivered. */
  kind: 'task' | 'statusUpdate' | 'artifactUpdate' | 'message';
  /**
   * The push config the delivery's credential is bound to (the receiver sends it always): a
   * delegation ignores notices for any config but the one it registered.
   */
  configId?: string;
}

/** Payload of the `answer` update and signal. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface AnswerInput {
  /** The answer text; must not be empty. */
  text: string;
  /** More parts (e.g. structured data) after the text. */
  parts?: Part[];
  /** Answer this task only (needed by coordinators with several delegations); rejected if it is not the one waiting. */
  taskId?: string;
  /**
   * The question this answers (`PendingQuestion.id`, from the status the caller read): refused
   * when that question no longer waits, so a late or repeated answer never answers the next
   * question. Without it the answer goes to the question that waits, unless it repeats the
   * previous question's answer moments after the new question was asked (a late duplicate).
   */
  questionId?: string;
  /**
   * True when `questionId` is the question that was pending when the caller started, not one a
   * person chose (`a2a-temporal answer` without `--question`): the answer is checked as a
   * possible late duplicate just like an answer without a question id.
   */
  boundToPending?: boolean;
  /** Idempotency key: the same answer id is applied once, however often it is delivered. */
  answerId?: string;
  /** Who answers (a person's or a system's name), for traces: `a2a-temporal answer --by`, default the user name. */
  by?: string;
}

/** What the `answer` update returns once the answer is accepted. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface AnswerReceipt {
  /** The agent's task that got the answer. */
  taskId: string;
  /** The question answered. */
  questionId?: string;
  /** 1 for the first answer of this delegation. */
  round: number;
  /** The answer's id: the same id is applied once, however often it is delivered. */
  answerId: string;
  /** The id of the A2A message that carries the answer to the agent. */
  messageId: string;
}
