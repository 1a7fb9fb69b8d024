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
  /** Media types the client accepts in the answer. */
  acceptedOutputModes: StringListSchema.optional(),
  /** Unset = server default; 0 = no history; N = at most the N newest messages. */
  historyLength: z.number().int().nonnegative().optional(),
  /** Default false (blocking: the call returns when the task is terminal or interrupted). */
  returnImmediately: z.boolean().optional(),
  /** Where the agent should deliver push notifications for the task. */
  taskPushNotificationConfig: TaskPushNotificationConfigSchema.optional(),
});
/** How SendMessage should answer: `returnImmediately`, history length, push config. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface SendMessageConfiguration extends z.infer<typeof SendMessageConfigurationWire> {}
export const SendMessageConfigurationSchema: z.ZodType<SendMessageConfiguration> = SendMessageConfigurationWire;

export const SendMessageRequestSchema = wireObject({
  /** The interface's tenant, filled in by the client. */
  tenant: z.string().optional(),
  /** The message to send. */
  message: MessageSchema,
  /** How the agent should answer. */
  configuration: SendMessageConfigurationSchema.optional(),
  /** The client's own annotations of the request. */
  metadata: MetadataSchema.optional(),
});
/** What callers pass to `sendMessage` / `sendStreamingMessage`; the client fills `tenant` from the interface. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface SendMessageRequest extends Omit<z.infer<typeof SendMessageRequestSchema>, 'tenant'> {}

export const ListTasksRequestSchema = wireObject({
  /** The interface's tenant, filled in by the client. */
  tenant: z.string().optional(),
  /** Only tasks of this context. */
  contextId: z.string().optional(),
  /** Only tasks in this state. */
  status: TaskStateSchema.optional(),
  /** 1–100, default 50. */
  pageSize: z.number().int().min(1).max(100).optional(),
  /** The `nextPageToken` of the previous page; absent for the first. */
  pageToken: z.string().optional(),
  /** At most this many messages of each task's history. */
  historyLength: z.number().int().nonnegative().optional(),
  /** ISO 8601: only tasks whose status time is at or after this. */
  statusTimestampAfter: z.string().optional(),
  /** Default false: `artifacts` are left out of the listed tasks. */
  includeArtifacts: z.boolean().optional(),
});
/** The filters and paging of ListTasks. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface ListTasksRequest extends Omit<z.infer<typeof ListTasksRequestSchema>, 'tenant'> {}

const ListTasksResponseWire = wireObject({
  /** The tasks of this page. */
  tasks: z.array(TaskSchema).default([]),
  /** `""` on the last page. */
  nextPageToken: z.string().default(''),
  /** How many tasks a page holds. */
  pageSize: z.number().int().default(0),
  /** How many tasks match, over all pages. */
  totalSize: z.number().int().default(0),
});
/** All four fields are required by the spec but omitted when default-valued, so they are filled here. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface ListTasksResponse extends z.infer<typeof ListTasksResponseWire> {}
export const ListTasksResponseSchema: z.ZodType<ListTasksResponse> = ListTasksResponseWire;
