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
  /** Chosen by the sender (a UUID); the agent drops a message whose id it has seen. */
  messageId: IdSchema,
  /** The conversation; absent on a first message, then the agent's context id. */
  contextId: OptionalIdSchema,
  /** The task the message continues (an answer to input-required, a follow-up). */
  taskId: OptionalIdSchema,
  /** Who wrote it: `ROLE_USER` (us) or `ROLE_AGENT`. */
  role: RoleSchema,
  /** Required and non-empty by the spec, but ProtoJSON omits an empty list and the SDK accepts one. */
  parts: z.array(PartSchema).default([]),
  /** The sender's own annotations of the message. */
  metadata: MetadataSchema.optional(),
  /** The protocol extensions the message uses. */
  extensions: StringListSchema.optional(),
  /** Other tasks the message refers to. */
  referenceTaskIds: z.array(guarded(IdSchema)).optional(),
});
/** An A2A message: a role and its parts, in a context and possibly a task. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface Message extends z.infer<typeof MessageWire> {}
export const MessageSchema: z.ZodType<Message> = MessageWire;
