/**
 * `Task`, `TaskStatus` and `Artifact` (A2A 1.0 §4). Default-valued fields are omitted on the
 * wire (no `artifacts` key when there are none), so every list here is optional.
 */
import { z } from 'zod';
import { IdSchema, MetadataSchema, OptionalIdSchema, StringListSchema, wireObject } from './json.js';
import { MessageSchema } from './message.js';
import { PartSchema } from './part.js';
import { TaskStateSchema } from './task-state.js';

const TaskStatusWire = wireObject({
  /** Where the task is: submitted, working, input-required, completed, failed, … */
  state: TaskStateSchema,
  /** The agent's words about this state, e.g. the question of an INPUT_REQUIRED status. */
  message: MessageSchema.optional(),
  /** ISO 8601 UTC. */
  timestamp: z.string().optional(),
});
/** The status of an A2A task: its state, the message that came with it and when. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TaskStatus extends z.infer<typeof TaskStatusWire> {}
export const TaskStatusSchema: z.ZodType<TaskStatus> = TaskStatusWire;

const ArtifactWire = wireObject({
  /** The artifact's id, unique within the task; chunks with `append` add to it. */
  artifactId: IdSchema,
  /** The artifact's name for people. */
  name: z.string().optional(),
  /** What the artifact holds. */
  description: z.string().optional(),
  /** The content: text, bytes, URLs or data. */
  parts: z.array(PartSchema).default([]),
  /** The agent's own annotations of the artifact. */
  metadata: MetadataSchema.optional(),
  /** The protocol extensions the artifact uses. */
  extensions: StringListSchema.optional(),
});
/** An artifact of an A2A task: what the agent produced, as parts. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Artifact extends z.infer<typeof ArtifactWire> {}
export const ArtifactSchema: z.ZodType<Artifact> = ArtifactWire;

const TaskWire = wireObject({
  /** The task's id, chosen by the agent. */
  id: IdSchema,
  /** The conversation the task belongs to; follow-ups in the same context continue it. */
  contextId: OptionalIdSchema,
  /** The task's current status. */
  status: TaskStatusSchema,
  /** What the agent has produced so far. */
  artifacts: z.array(ArtifactSchema).optional(),
  /** The messages of the task, oldest first (as many as the request's `historyLength` allows). */
  history: z.array(MessageSchema).optional(),
  /** The agent's own annotations of the task. */
  metadata: MetadataSchema.optional(),
});
/** An A2A task: its id, context, status, artifacts and history. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Task extends z.infer<typeof TaskWire> {}
export const TaskSchema: z.ZodType<Task> = TaskWire;
