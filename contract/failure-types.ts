/**
 * Stable `ApplicationFailure.type` values. Workflows and callers branch on these strings
 * (never on `instanceof`); a retry policy's `nonRetryableErrorTypes` can name them too.
 * Protocol and transport errors from the A2A client keep their own codes, prefixed `A2A_`
 * (e.g. `A2A_TASK_NOT_FOUND`, `A2A_INVALID_AGENT_RESPONSE`, `A2A_CONNECTION_FAILED`).
 * See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows).
 */
export const FailureType = {
  /** The agent ended the task in TASK_STATE_FAILED. */
  taskFailed: 'A2A_TASK_FAILED',
  /** The agent ended the task in TASK_STATE_REJECTED. */
  taskRejected: 'A2A_TASK_REJECTED',
  /** The task ended in TASK_STATE_CANCELED without us asking. */
  taskCanceled: 'A2A_TASK_CANCELED',
  /** Nobody answered the agent's question before the input deadline; the remote task was canceled. */
  inputTimeout: 'A2A_INPUT_TIMEOUT',
  /** The agent name is not in the worker's agents file. */
  agentNotConfigured: 'A2A_AGENT_NOT_CONFIGURED',
  /** The agents file names a credential the worker's environment does not hold. */
  credentialMissing: 'A2A_CREDENTIAL_MISSING',
  /** The agent could not be reached within the configured time. */
  agentUnreachable: 'A2A_AGENT_UNREACHABLE',
  /** The delegation's deadline passed before the task ended; the remote task was canceled. */
  deadlineExceeded: 'A2A_DEADLINE_EXCEEDED',
  /** The task's artifacts are too large to travel through Temporal history. */
  resultTooLarge: 'A2A_RESULT_TOO_LARGE',
  /** The delegation was given nothing to send. */
  emptyMessage: 'A2A_EMPTY_MESSAGE',
  /** A setting of the delegation's input is not valid (e.g. a duration that is not one); nothing was sent. */
  invalidInput: 'A2A_INVALID_INPUT',
  /** Mode `push` was asked for, but the agent cannot push or the worker has no webhook receiver. */
  pushUnavailable: 'A2A_PUSH_UNAVAILABLE',
} as const;

export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** Prefix of failure types that carry an A2A client error code. */
export const A2A_ERROR_TYPE_PREFIX = 'A2A_';
