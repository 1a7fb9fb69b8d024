/**
 * Stream events and the two oneof responses (A2A 1.0 §3, §5).
 *
 * `SendMessageResponse` is `{"task":…}` | `{"message":…}` — both the JSON-RPC `result` and the
 * REST body. `StreamResponse` adds `{"statusUpdate":…}` and `{"artifactUpdate":…}`. There is no
 * `kind` and no `final` in 1.0: a stream ends when the server closes it.
 */
import { z } from 'zod';
import { IdSchema, MetadataSchema, OptionalIdSchema, oneofKeys, wireObject } from './json.js';
import { MessageSchema } from './message.js';
import { ArtifactSchema, TaskSchema, TaskStatusSchema } from './task.js';

const TaskStatusUpdateEventWire = wireObject({
  taskId: IdSchema,
  contextId: OptionalIdSchema,
  status: TaskStatusSchema,
  metadata: MetadataSchema.optional(),
});
/** A stream or push event that a task's status changed. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TaskStatusUpdateEvent extends z.infer<typeof TaskStatusUpdateEventWire> {}
export const TaskStatusUpdateEventSchema: z.ZodType<TaskStatusUpdateEvent> = TaskStatusUpdateEventWire;

const TaskArtifactUpdateEventWire = wireObject({
  taskId: IdSchema,
  contextId: OptionalIdSchema,
  artifact: ArtifactSchema,
  /** Add these parts to the artifact already sent with the same `artifactId` (absent = false = replace). */
  append: z.boolean().optional(),
  /** This is the artifact's final chunk (absent = false). */
  lastChunk: z.boolean().optional(),
  metadata: MetadataSchema.optional(),
});
/** A stream or push event that carries an artifact or a chunk of one. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TaskArtifactUpdateEvent extends z.infer<typeof TaskArtifactUpdateEventWire> {}
export const TaskArtifactUpdateEventSchema: z.ZodType<TaskArtifactUpdateEvent> = TaskArtifactUpdateEventWire;

export const SendMessageResponseSchema = oneofKeys(
  { task: TaskSchema, message: MessageSchema },
  'a SendMessageResponse',
);
/** What SendMessage returns: a task or a direct message. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type SendMessageResponse = z.infer<typeof SendMessageResponseSchema>;

export const StreamResponseSchema = oneofKeys(
  {
    task: TaskSchema,
    message: MessageSchema,
    statusUpdate: TaskStatusUpdateEventSchema,
    artifactUpdate: TaskArtifactUpdateEventSchema,
  },
  'a StreamResponse',
);
/** One event of a stream: a task, a message, a status update or an artifact update. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type StreamResponse = z.infer<typeof StreamResponseSchema>;
