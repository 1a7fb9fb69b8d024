/**
 * `Message` (A2A 1.0 §4): one turn of the conversation. `messageId` is chosen by the sender
 * (a UUID) and lets the agent drop duplicates; `parts` carries the content.
 */
import { z } from 'zod';
import { IdSchema, MetadataSchema, wireObject } from './json.js';
import { PartSchema } from './part.js';
import { RoleSchema } from './task-state.js';

export const MessageSchema = wireObject({
  messageId: IdSchema,
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: RoleSchema,
  /** Required and non-empty by the spec, but ProtoJSON omits an empty list and the SDK accepts one. */
  parts: z.array(PartSchema).default([]),
  metadata: MetadataSchema.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});
export type Message = z.infer<typeof MessageSchema>;
