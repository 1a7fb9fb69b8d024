/**
 * `Message` (A2A 1.0 §4): one turn of the conversation. `messageId` is chosen by the sender
 * (a UUID) and lets the agent drop duplicates; `parts` carries the content.
 */
import { z } from 'zod';
import { IdSchema, MetadataSchema, OptionalIdSchema, StringListSchema, wireObject } from './json.js';
import { guarded } from './bounded-parse.js';
import { PartSchema } from './part.js';
import { RoleSchema } from './task-state.js';

const MessageWire = wireObject({
  messageId: IdSchema,
  contextId: OptionalIdSchema,
  taskId: OptionalIdSchema,
  role: RoleSchema,
  /** Required and non-empty by the spec, but ProtoJSON omits an empty list and the SDK accepts one. */
  parts: z.array(PartSchema).default([]),
  metadata: MetadataSchema.optional(),
  extensions: StringListSchema.optional(),
  referenceTaskIds: z.array(guarded(IdSchema)).optional(),
});
/** An A2A message: a role and its parts, in a context and possibly a task. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Message extends z.infer<typeof MessageWire> {}
export const MessageSchema: z.ZodType<Message> = MessageWire;
