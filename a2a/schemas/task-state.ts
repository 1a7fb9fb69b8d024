/**
 * `TaskState` and `Role` enums (A2A 1.0 §4), by their ProtoJSON names.
 *
 * Terminal: COMPLETED, FAILED, CANCELED, REJECTED — no further messages, no subscribe.
 * Interrupted: INPUT_REQUIRED, AUTH_REQUIRED — the agent waits for the client (or, for
 * AUTH_REQUIRED, for credentials that may arrive out of band).
 */
import { z } from 'zod';

export const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;

/** ProtoJSON parsers also accept an enum's number; the index in TASK_STATES is the proto number. */
function enumNumberToName(names: readonly string[]) {
  return (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && names[value] ? names[value] : value;
}

const TaskStateWire = z.preprocess(
  enumNumberToName(TASK_STATES),
  z.enum(TASK_STATES, { error: 'expected a TASK_STATE_* value' }),
);
/** The state of an A2A task (`TASK_STATE_*`). See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type TaskState = z.infer<typeof TaskStateWire>;
export const TaskStateSchema: z.ZodType<TaskState> = TaskStateWire;

export const ROLES = ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'] as const;

const RoleWire = z.preprocess(
  enumNumberToName(ROLES),
  z.enum([...ROLES, 'UNRECOGNIZED'], { error: 'expected ROLE_USER or ROLE_AGENT' }),
);
/**
 * `ROLE_USER` | `ROLE_AGENT` (and `ROLE_UNSPECIFIED`). `"UNRECOGNIZED"` is tolerated: the
 * official SDK stores an unknown role (e.g. a 0.3-style `"user"` sent to a 1.0 server) under
 * that name and echoes it back in task history.
 * See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own).
 */
export type Role = z.infer<typeof RoleWire>;
export const RoleSchema: z.ZodType<Role> = RoleWire;

export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** COMPLETED, FAILED, CANCELED or REJECTED: the task will never change again. */
export function isTerminalState(state: TaskState): boolean {
  return TERMINAL_STATES.has(state);
}

/** INPUT_REQUIRED or AUTH_REQUIRED: the agent waits for the client. */
export function isInterruptedState(state: TaskState): boolean {
  return INTERRUPTED_STATES.has(state);
}
