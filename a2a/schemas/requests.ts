/**
 * Request objects (A2A 1.0 §2, §3) and the ListTasks response. Our client builds requests
 * from these types; the schemas exist so agents and tests can validate what they receive.
 */
import { z } from 'zod';
import { MetadataSchema, StringListSchema, wireObject } from './json.js';
import { MessageSchema } from './message.js';
import { TaskPushNotificationConfigSchema } from './push-config.js';
import { TaskSchema } from './task.js';
import { TaskStateSchema } from './task-state.js';

const SendMessageConfigurationWire = wireObject({
  acceptedOutputModes: StringListSchema.optional(),
  /** Unset = server default; 0 = no history; N = at most the N newest messages. */
  historyLength: z.number().int().nonnegative().optional(),
  /** Default false (blocking: the call returns when the task is terminal or interrupted). */
  returnImmediately: z.boolean().optional(),
  taskPushNotificationConfig: TaskPushNotificationConfigSchema.optional(),
});
/** How SendMessage should answer: `returnImmediately`, history length, push config. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface SendMessageConfiguration extends z.infer<typeof SendMessageConfigurationWire> {}
export const SendMessageConfigurationSchema: z.ZodType<SendMessageConfiguration> = SendMessageConfigurationWire;

export const SendMessageRequestSchema = wireObject({
  tenant: z.string().optional(),
  message: MessageSchema,
  configuration: SendMessageConfigurationSchema.optional(),
  metadata: MetadataSchema.optional(),
});
/** What callers pass to `sendMessage` / `sendStreamingMessage`; the client fills `tenant` from the interface. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface SendMessageRequest extends Omit<z.infer<typeof SendMessageRequestSchema>, 'tenant'> {}

export const ListTasksRequestSchema = wireObject({
  tenant: z.string().optional(),
  contextId: z.string().optional(),
  status: TaskStateSchema.optional(),
  /** 1–100, default 50. */
  pageSize: z.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength: z.number().int().nonnegative().optional(),
  /** ISO 8601: only tasks whose status time is at or after this. */
  statusTimestampAfter: z.string().optional(),
  /** Default false: `artifacts` are left out of the listed tasks. */
  includeArtifacts: z.boolean().optional(),
});
/** The filters and paging of ListTasks. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface ListTasksRequest extends Omit<z.infer<typeof ListTasksRequestSchema>, 'tenant'> {}

const ListTasksResponseWire = wireObject({
  tasks: z.array(TaskSchema).default([]),
  /** `""` on the last page. */
  nextPageToken: z.string().default(''),
  pageSize: z.number().int().default(0),
  totalSize: z.number().int().default(0),
});
/** All four fields are required by the spec but omitted when default-valued, so they are filled here. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface ListTasksResponse extends z.infer<typeof ListTasksResponseWire> {}
export const ListTasksResponseSchema: z.ZodType<ListTasksResponse> = ListTasksResponseWire;
