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
  artifactId: IdSchema,
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(PartSchema).default([]),
  metadata: MetadataSchema.optional(),
  extensions: StringListSchema.optional(),
});
/** An artifact of an A2A task: what the agent produced, as parts. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Artifact extends z.infer<typeof ArtifactWire> {}
export const ArtifactSchema: z.ZodType<Artifact> = ArtifactWire;

const TaskWire = wireObject({
  id: IdSchema,
  contextId: OptionalIdSchema,
  status: TaskStatusSchema,
  artifacts: z.array(ArtifactSchema).optional(),
  history: z.array(MessageSchema).optional(),
  metadata: MetadataSchema.optional(),
});
/** An A2A task: its id, context, status, artifacts and history. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Task extends z.infer<typeof TaskWire> {}
export const TaskSchema: z.ZodType<Task> = TaskWire;
