/**
 * `TaskPushNotificationConfig` (A2A 1.0 §6): a webhook the agent POSTs StreamResponse
 * events to. Inline in `SendMessageConfiguration` it has no `taskId`; the agent assigns `id`.
 */
import { z } from 'zod';
import { wireObject } from './json.js';

const AuthenticationInfoWire = wireObject({
  /** An IANA HTTP auth scheme such as `Bearer` (compared case-insensitively). */
  scheme: z.string(),
  /** The credential that goes with the scheme (a token for `Bearer`). */
  credentials: z.string().optional(),
});
/** How an agent authenticates its push deliveries: scheme and credentials. See [docs/push.md](../../docs/push.md). */
export interface AuthenticationInfo extends z.infer<typeof AuthenticationInfoWire> {}
export const AuthenticationInfoSchema: z.ZodType<AuthenticationInfo> = AuthenticationInfoWire;

const TaskPushNotificationConfigWire = wireObject({
  /** The interface's tenant, filled in by the client. */
  tenant: z.string().optional(),
  /** The config's id, chosen by the agent when the client leaves it out. */
  id: z.string().optional(),
  /** The task the config belongs to. */
  taskId: z.string().optional(),
  /** The webhook the agent delivers to. */
  url: z.string({ error: 'expected the webhook URL' }).min(1, { error: 'must not be empty' }),
  /** A token the agent echoes in each delivery (`X-A2A-Notification-Token`). */
  token: z.string().optional(),
  /** How the agent authenticates its deliveries. */
  authentication: AuthenticationInfoSchema.optional(),
});
/** A push notification config of a task: where the agent delivers and with which credential. See [docs/push.md](../../docs/push.md). */
export interface TaskPushNotificationConfig extends z.infer<typeof TaskPushNotificationConfigWire> {}
export const TaskPushNotificationConfigSchema: z.ZodType<TaskPushNotificationConfig> = TaskPushNotificationConfigWire;

export const ListTaskPushNotificationConfigsResponseSchema = wireObject({
  /** The task's push configs on this page. */
  configs: z.array(TaskPushNotificationConfigSchema).default([]),
  /** The token for the next page; absent or empty on the last. */
  nextPageToken: z.string().optional(),
});
