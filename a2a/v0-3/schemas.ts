/**
 * Lenient zod schemas for what A2A 0.3 agents send back. Two JSON dialects exist for 0.3:
 *
 * - JSON-RPC: the 0.3 JSON schema — `kind` tags (`task`, `message`, `status-update`,
 *   `artifact-update`; parts `text`/`file`/`data`), lower-case states (`input-required`),
 *   roles `user`/`agent`, bare results.
 * - HTTP+JSON: the ProtoJSON of the 0.3 proto (`a2a.v1`) — no `kind`, `TASK_STATE_*` states
 *   (with `TASK_STATE_CANCELLED`), `ROLE_*` roles, `content` instead of `parts`, parts
 *   `{text}` / `{file:{fileWithUri|fileWithBytes,mimeType}}` / `{data:{data:{…}}}`, the status
 *   message as `message` (or `update`), and `{task}|{msg}|{statusUpdate}|{artifactUpdate}`
 *   wrappers. This is what the official SDK's 0.3 compat layer serves under `/v1/…`.
 *
 * Each schema accepts both spellings; ./to-v1.ts turns the result into 1.0 objects.
 */
import { z } from 'zod';
import {
  IdSchema,
  JsonValueSchema,
  MetadataSchema,
  OptionalIdSchema,
  StringListSchema,
  listOr,
  wireObject,
} from '../schemas/json.js';
import { guarded } from '../schemas/bounded-parse.js';

export const LEGACY_STATES = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  canceled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  unknown: 'TASK_STATE_UNSPECIFIED',
  // ProtoJSON spellings of the 0.3 proto.
  TASK_STATE_UNSPECIFIED: 'TASK_STATE_UNSPECIFIED',
  TASK_STATE_SUBMITTED: 'TASK_STATE_SUBMITTED',
  TASK_STATE_WORKING: 'TASK_STATE_WORKING',
  TASK_STATE_COMPLETED: 'TASK_STATE_COMPLETED',
  TASK_STATE_FAILED: 'TASK_STATE_FAILED',
  TASK_STATE_CANCELLED: 'TASK_STATE_CANCELED',
  TASK_STATE_CANCELED: 'TASK_STATE_CANCELED',
  TASK_STATE_INPUT_REQUIRED: 'TASK_STATE_INPUT_REQUIRED',
  TASK_STATE_REJECTED: 'TASK_STATE_REJECTED',
  TASK_STATE_AUTH_REQUIRED: 'TASK_STATE_AUTH_REQUIRED',
} as const;

type LegacyStateName = keyof typeof LEGACY_STATES;
const LEGACY_STATE_NAMES = Object.keys(LEGACY_STATES) as [LegacyStateName, ...LegacyStateName[]];

export const LegacyTaskStateSchema = z
  .enum(LEGACY_STATE_NAMES, { error: 'expected an A2A 0.3 task state such as "working" or "input-required"' })
  .transform((s) => LEGACY_STATES[s]);

export const LegacyRoleSchema = z
  .enum(['user', 'agent', 'ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED', 'UNRECOGNIZED'], {
    error: 'expected "user" or "agent"',
  })
  .transform((r) => {
    if (r === 'user' || r === 'ROLE_USER') return 'ROLE_USER' as const;
    if (r === 'agent' || r === 'ROLE_AGENT') return 'ROLE_AGENT' as const;
    return r;
  });

export const LegacyFileSchema = wireObject(
  {
    uri: z.string().optional(),
    bytes: z.string().optional(),
    fileWithUri: z.string().optional(),
    fileWithBytes: z.string().optional(),
    mimeType: z.string().optional(),
    name: z.string().optional(),
  },
  {
    exactlyOneOf: ['uri', 'bytes', 'fileWithUri', 'fileWithBytes'],
    message: 'a 0.3 file needs exactly one of uri or bytes',
  },
);

const LegacyPartWire = wireObject(
  {
    kind: z.enum(['text', 'file', 'data'], { error: 'expected a part kind: text, file or data' }).optional(),
    text: z.string().optional(),
    file: LegacyFileSchema.optional(),
    data: JsonValueSchema.optional(),
    metadata: MetadataSchema.optional(),
  },
  {
    exactlyOneOf: ['text', 'file', 'data'],
    message: `a 0.3 part needs exactly one of ${listOr(['text', 'file', 'data'])}`,
  },
);
export interface LegacyPart extends z.infer<typeof LegacyPartWire> {}
export const LegacyPartSchema: z.ZodType<LegacyPart> = LegacyPartWire;

const LegacyMessageWire = wireObject({
  kind: z.literal('message').optional(),
  messageId: IdSchema,
  contextId: OptionalIdSchema,
  taskId: OptionalIdSchema,
  role: LegacyRoleSchema,
  parts: z.array(LegacyPartSchema).optional(),
  /** ProtoJSON name of `parts` in the 0.3 proto. */
  content: z.array(LegacyPartSchema).optional(),
  metadata: MetadataSchema.optional(),
  extensions: StringListSchema.optional(),
  referenceTaskIds: z.array(guarded(IdSchema)).optional(),
});
export interface LegacyMessage extends z.infer<typeof LegacyMessageWire> {}
export const LegacyMessageSchema: z.ZodType<LegacyMessage> = LegacyMessageWire;

const LegacyTaskStatusWire = wireObject({
  state: LegacyTaskStateSchema,
  message: LegacyMessageSchema.optional(),
  /** ProtoJSON field name of the status message in the 0.3 proto. */
  update: LegacyMessageSchema.optional(),
  timestamp: z.string().optional(),
});
export interface LegacyTaskStatus extends z.infer<typeof LegacyTaskStatusWire> {}
export const LegacyTaskStatusSchema: z.ZodType<LegacyTaskStatus> = LegacyTaskStatusWire;

const LegacyArtifactWire = wireObject({
  artifactId: IdSchema,
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(LegacyPartSchema).default([]),
  metadata: MetadataSchema.optional(),
  extensions: StringListSchema.optional(),
});
export interface LegacyArtifact extends z.infer<typeof LegacyArtifactWire> {}
export const LegacyArtifactSchema: z.ZodType<LegacyArtifact> = LegacyArtifactWire;

const LegacyTaskWire = wireObject({
  kind: z.literal('task').optional(),
  id: IdSchema,
  contextId: OptionalIdSchema,
  status: LegacyTaskStatusSchema,
  artifacts: z.array(LegacyArtifactSchema).optional(),
  history: z.array(LegacyMessageSchema).optional(),
  metadata: MetadataSchema.optional(),
});
export interface LegacyTask extends z.infer<typeof LegacyTaskWire> {}
export const LegacyTaskSchema: z.ZodType<LegacyTask> = LegacyTaskWire;

export const LegacyStatusUpdateSchema = wireObject({
  kind: z.literal('status-update').optional(),
  taskId: IdSchema,
  contextId: OptionalIdSchema,
  status: LegacyTaskStatusSchema,
  final: z.boolean().optional(),
  metadata: MetadataSchema.optional(),
});

export const LegacyArtifactUpdateSchema = wireObject({
  kind: z.literal('artifact-update').optional(),
  taskId: IdSchema,
  contextId: OptionalIdSchema,
  artifact: LegacyArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: MetadataSchema.optional(),
});

export const LegacyPushConfigSchema = wireObject({
  id: z.string().optional(),
  url: z.string({ error: 'expected the webhook URL' }).min(1, { error: 'must not be empty' }),
  token: z.string().optional(),
  authentication: wireObject({
    schemes: StringListSchema.default([]),
    credentials: z.string().optional(),
  }).optional(),
});

const LegacyTaskPushConfigWire = wireObject({
  taskId: z.string().optional(),
  name: z.string().optional(),
  pushNotificationConfig: LegacyPushConfigSchema,
});
/** JSON-RPC `{taskId, pushNotificationConfig}` or ProtoJSON `{name: "tasks/T/pushNotificationConfigs/C", pushNotificationConfig}`. */
export interface LegacyTaskPushConfig extends z.infer<typeof LegacyTaskPushConfigWire> {}
export const LegacyTaskPushConfigSchema: z.ZodType<LegacyTaskPushConfig> = LegacyTaskPushConfigWire;

/** JSON-RPC `tasks/pushNotificationConfig/list` returns an array; REST returns `{configs}`. */
export const LegacyPushConfigListSchema = z.union([
  z.array(LegacyTaskPushConfigSchema),
  wireObject({ configs: z.array(LegacyTaskPushConfigSchema).default([]), nextPageToken: z.string().optional() }),
]);
