/**
 * `TaskPushNotificationConfig` (A2A 1.0 §6): a webhook the agent POSTs StreamResponse
 * events to. Inline in `SendMessageConfiguration` it has no `taskId`; the agent assigns `id`.
 */
import { z } from 'zod';
import { wireObject } from './json.js';

const AuthenticationInfoWire = wireObject({
  /** An IANA HTTP auth scheme such as `Bearer` (compared case-insensitively). */
  scheme: z.string(),
  credentials: z.string().optional(),
});
/** How an agent authenticates its push deliveries: scheme and credentials. See [docs/push.md](../../docs/push.md). */
export interface AuthenticationInfo extends z.infer<typeof AuthenticationInfoWire> {}
export const AuthenticationInfoSchema: z.ZodType<AuthenticationInfo> = AuthenticationInfoWire;

const TaskPushNotificationConfigWire = wireObject({
  tenant: z.string().optional(),
  id: z.string().optional(),
  taskId: z.string().optional(),
  url: z.string({ error: 'expected the webhook URL' }).min(1, { error: 'must not be empty' }),
  token: z.string().optional(),
  authentication: AuthenticationInfoSchema.optional(),
});
/** A push notification config of a task: where the agent delivers and with which credential. See [docs/push.md](../../docs/push.md). */
export interface TaskPushNotificationConfig extends z.infer<typeof TaskPushNotificationConfigWire> {}
export const TaskPushNotificationConfigSchema: z.ZodType<TaskPushNotificationConfig> = TaskPushNotificationConfigWire;

export const ListTaskPushNotificationConfigsResponseSchema = wireObject({
  configs: z.array(TaskPushNotificationConfigSchema).default([]),
  nextPageToken: z.string().optional(),
});
