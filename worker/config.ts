/** The worker's configuration, read once from the environment (and CLI flags, which win). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { stripUndefined } from '../platform/strip-undefined.js';
import { DEFAULT_TASK_QUEUE } from '../platform/temporal-config.js';
import type { WebhookDeps } from '../activities/deps.js';
import type { A2ALimits } from '../a2a/index.js';
import type { AgentUrlSettings } from '../activities/agent-registry.js';
import { loadWebhookDeps } from './webhook-config.js';
import { loadBlobSettings, type BlobSettings } from '../storage/config.js';

const positiveInt = z.coerce.number().int().positive();
/** `true`/`false` (also 1/0, yes/no, on/off). */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const WorkerEnvSchema = z.object({
  A2A_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  /** Agent names → URLs and credential references. @default ./agents.json when it exists */
  A2A_AGENTS_FILE: z.string().min(1).optional(),
  /** Concurrent activities; a tracking activity holds one while its remote task runs. @default 1000 */
  A2A_MAX_ACTIVITIES: positiveInt.default(1000),
  /**
   * Workflows kept in the worker's cache; parked ones beyond it are replayed when they wake (a
   * few ms of CPU). With about 0.3 MB per cached delegation on a worker idling at about 300 MB,
   * the default keeps a worker with 10,000 parked delegations within 512 MB. @default 250
   */
  A2A_MAX_CACHED_WORKFLOWS: positiveInt.default(250),
  /** Per-request timeout of unary A2A calls, in ms. @default 30000 */
  A2A_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  /**
   * Longest pause between the tracking activity's heartbeats, in ms. Heartbeats carry the live
   * artifact text `watch` shows; the SDK's default (0.8 x heartbeat timeout) would show it in 4 s steps.
   * @default 1000
   */
  A2A_HEARTBEAT_THROTTLE_MS: positiveInt.default(1_000),
  /** A pre-built workflow bundle (skips bundling at start). */
  A2A_WORKFLOW_BUNDLE: z.string().min(1).optional(),
  /** Caps on what agents may send (a2a/limits.ts); past one, the call fails with A2A_RESPONSE_TOO_LARGE. */
  A2A_MAX_BODY_BYTES: positiveInt.optional(),
  A2A_MAX_CARD_BYTES: positiveInt.optional(),
  A2A_MAX_SSE_LINE_BYTES: positiveInt.optional(),
  A2A_MAX_SSE_EVENT_BYTES: positiveInt.optional(),
  A2A_MAX_ARTIFACTS_PER_TASK: positiveInt.optional(),
  A2A_MAX_PARTS_PER_ARTIFACT: positiveInt.optional(),
  A2A_MAX_JSON_DEPTH: positiveInt.optional(),
  A2A_MAX_DELEGATION_BYTES: positiveInt.optional(),
  A2A_MAX_DELEGATION_STORED_BYTES: positiveInt.optional(),
  /** Agents may be named by URL in workflow inputs (not only by agents-file name). @default true */
  A2A_AGENTS_BY_URL: bool.default(true),
  /** Agents named by URL may be on private addresses (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10). @default false */
  A2A_ALLOW_PRIVATE_AGENT_URLS: bool.default(false),
});

export interface WorkerConfig {
  taskQueue: string;
  agentsFile?: string;
  maxConcurrentActivities: number;
  maxCachedWorkflows: number;
  requestTimeoutMs: number;
  heartbeatThrottleMs: number;
  workflowBundlePath?: string;
  /** Push mode (A2A_WEBHOOK_URL + A2A_WEBHOOK_SECRET); unset = no push. */
  webhook?: WebhookDeps;
  /** The caps set in the environment (A2A_MAX_*); the others keep their defaults. */
  limits: Partial<A2ALimits>;
  /** Agents named by URL: allowed at all (A2A_AGENTS_BY_URL), on private addresses (A2A_ALLOW_PRIVATE_AGENT_URLS). */
  agentUrls: AgentUrlSettings;
  /** The blob store and Temporal's External Storage on it (A2A_BLOB_*, A2A_S3_*: storage/config.ts). */
  blobs: BlobSettings;
}

/** @throws Error with a sentence naming the variable when the environment is invalid. */
export function loadWorkerConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<WorkerConfig> = {},
): WorkerConfig {
  const parsed = WorkerEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Environment variable ${issue.path.join('.')} is invalid: ${issue.message}.`);
  }
  const e = parsed.data;
  const defaultAgentsFile = resolve('agents.json');
  return {
    taskQueue: e.A2A_TASK_QUEUE,
    agentsFile: e.A2A_AGENTS_FILE ?? (existsSync(defaultAgentsFile) ? defaultAgentsFile : undefined),
    maxConcurrentActivities: e.A2A_MAX_ACTIVITIES,
    maxCachedWorkflows: e.A2A_MAX_CACHED_WORKFLOWS,
    requestTimeoutMs: e.A2A_REQUEST_TIMEOUT_MS,
    heartbeatThrottleMs: e.A2A_HEARTBEAT_THROTTLE_MS,
    workflowBundlePath: e.A2A_WORKFLOW_BUNDLE,
    webhook: loadWebhookDeps(env),
    limits: stripUndefined({
      maxBodyBytes: e.A2A_MAX_BODY_BYTES,
      maxCardBytes: e.A2A_MAX_CARD_BYTES,
      maxSseLineBytes: e.A2A_MAX_SSE_LINE_BYTES,
      maxSseEventBytes: e.A2A_MAX_SSE_EVENT_BYTES,
      maxArtifactsPerTask: e.A2A_MAX_ARTIFACTS_PER_TASK,
      maxPartsPerArtifact: e.A2A_MAX_PARTS_PER_ARTIFACT,
      maxJsonDepth: e.A2A_MAX_JSON_DEPTH,
      maxDelegationBytes: e.A2A_MAX_DELEGATION_BYTES,
      maxDelegationStoredBytes: e.A2A_MAX_DELEGATION_STORED_BYTES,
    }),
    agentUrls: { agentsByUrl: e.A2A_AGENTS_BY_URL, allowPrivate: e.A2A_ALLOW_PRIVATE_AGENT_URLS },
    blobs: loadBlobSettings(env),
    ...stripUndefined(overrides),
  };
}
