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
  /** The task whose status changed. */
  taskId: IdSchema,
  /** The task's context. */
  contextId: OptionalIdSchema,
  /** The new status. */
  status: TaskStatusSchema,
  /** The agent's own annotations of the event. */
  metadata: MetadataSchema.optional(),
});
/** A stream or push event that a task's status changed. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TaskStatusUpdateEvent extends z.infer<typeof TaskStatusUpdateEventWire> {}
export const TaskStatusUpdateEventSchema: z.ZodType<TaskStatusUpdateEvent> = TaskStatusUpdateEventWire;

const TaskArtifactUpdateEventWire = wireObject({
  /** The task the artifact belongs to. */
  taskId: IdSchema,
  /** The task's context. */
  contextId: OptionalIdSchema,
  /** The artifact, or the chunk of it this event carries. */
  artifact: ArtifactSchema,
  /** Add these parts to the artifact already sent with the same `artifactId` (absent = false = replace). */
  append: z.boolean().optional(),
  /** This is the artifact's final chunk (absent = false). */
  lastChunk: z.boolean().optional(),
  /** The agent's own annotations of the event. */
  metadata: MetadataSchema.optional(),
});
/** A stream or push event that carries an artifact or a chunk of one. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TaskArtifactUpdateEvent extends z.infer<typeof TaskArtifactUpdateEventWire> {}
export const TaskArtifactUpdateEventSchema: z.ZodType<TaskArtifactUpdateEvent> = TaskArtifactUpdateEventWire;

export const SendMessageResponseSchema = oneofKeys(
  {
    /** The task the message created or continued (with `returnImmediately`, usually still working). */
    task: TaskSchema,
    /** A direct answer without a task. */
    message: MessageSchema,
  },
  'a SendMessageResponse',
);
/** What SendMessage returns: a task or a direct message. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type SendMessageResponse = z.infer<typeof SendMessageResponseSchema>;

export const StreamResponseSchema = oneofKeys(
  {
    /** The task (SendMessage's usual answer, and a stream's first event). */
    task: TaskSchema,
    /** A direct answer without a task. */
    message: MessageSchema,
    /** The task's status changed. */
    statusUpdate: TaskStatusUpdateEventSchema,
    /** An artifact, or a chunk of one, arrived. */
    artifactUpdate: TaskArtifactUpdateEventSchema,
  },
  'a StreamResponse',
);
/** One event of a stream: a task, a message, a status update or an artifact update. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type StreamResponse = z.infer<typeof StreamResponseSchema>;
