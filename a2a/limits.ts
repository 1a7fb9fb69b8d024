/**
 * How much of what an agent sends the client will read. Every byte an agent sends is counted
 * while it arrives; past a byte cap the request is aborted (never buffered further) and the call
 * fails with a non-retryable `ResponseTooLargeError`. The count caps (artifacts, parts) end the
 * same way, the depth cap as an invalid response.
 *
 * Defaults are sized for real agents: a unary body or an SSE event may carry a whole task
 * (a stream's first event is the same Task that GetTask returns), an agent card is small.
 */

/** The caps, each with the worker's environment variable that sets it. See [docs/security.md](../docs/security.md). */
export interface A2ALimits {
  /** Bytes of one unary response body (`A2A_MAX_BODY_BYTES`). @default 8 MiB */
  maxBodyBytes: number;
  /** Bytes of the agent card (`A2A_MAX_CARD_BYTES`). @default 1 MiB */
  maxCardBytes: number;
  /** Bytes of one SSE line (`A2A_MAX_SSE_LINE_BYTES`). @default 8 MiB */
  maxSseLineBytes: number;
  /** Bytes of the `data:` of one SSE event (`A2A_MAX_SSE_EVENT_BYTES`). @default 8 MiB */
  maxSseEventBytes: number;
  /** Artifacts of one task, and of one artifact set being assembled (`A2A_MAX_ARTIFACTS_PER_TASK`). @default 1000 */
  maxArtifactsPerTask: number;
  /** Parts of one artifact, also as chunks are appended (`A2A_MAX_PARTS_PER_ARTIFACT`). @default 1000 */
  maxPartsPerArtifact: number;
  /** Nesting of JSON objects and arrays in any body or event (`A2A_MAX_JSON_DEPTH`). @default 64 */
  maxJsonDepth: number;
  /**
   * Content one agent may put into one delegation (`A2A_MAX_DELEGATION_BYTES`, or the agents-file
   * entry's `maxDelegationBytes`): the artifact parts, status texts and questions it holds, plus
   * what it replaced. Counted by the delegation activities (activities/byte-budget.ts), not by this
   * client. @default 32 MiB
   */
  maxDelegationBytes: number;
  /**
   * File bytes one agent may make us write to the blob store in one delegation
   * (`A2A_MAX_DELEGATION_STORED_BYTES`): file parts go to the store as they arrive instead of into
   * history, so they are counted here rather than in `maxDelegationBytes` (activities/artifact-spool.ts).
   * @default 1 GiB
   */
  maxDelegationStoredBytes: number;
}

export type LimitName = keyof A2ALimits;

const MiB = 1024 * 1024;

/** The caps on what an agent can send, as used when no `limits` are given. See [docs/security.md](../docs/security.md). */
export const DEFAULT_LIMITS: Readonly<A2ALimits> = Object.freeze({
  maxBodyBytes: 8 * MiB,
  maxCardBytes: 1 * MiB,
  maxSseLineBytes: 8 * MiB,
  maxSseEventBytes: 8 * MiB,
  maxArtifactsPerTask: 1000,
  maxPartsPerArtifact: 1000,
  maxJsonDepth: 64,
  maxDelegationBytes: 32 * MiB,
  maxDelegationStoredBytes: 1024 * MiB,
});

/** The worker's environment variable for each cap (parsed in worker/config.ts). */
export const LIMIT_ENV: Readonly<Record<LimitName, string>> = Object.freeze({
  maxBodyBytes: 'A2A_MAX_BODY_BYTES',
  maxCardBytes: 'A2A_MAX_CARD_BYTES',
  maxSseLineBytes: 'A2A_MAX_SSE_LINE_BYTES',
  maxSseEventBytes: 'A2A_MAX_SSE_EVENT_BYTES',
  maxArtifactsPerTask: 'A2A_MAX_ARTIFACTS_PER_TASK',
  maxPartsPerArtifact: 'A2A_MAX_PARTS_PER_ARTIFACT',
  maxJsonDepth: 'A2A_MAX_JSON_DEPTH',
  maxDelegationBytes: 'A2A_MAX_DELEGATION_BYTES',
  maxDelegationStoredBytes: 'A2A_MAX_DELEGATION_STORED_BYTES',
});

/** The defaults, overridden by whatever `partial` sets (undefined keeps the default). */
export function resolveLimits(partial: Partial<A2ALimits> | undefined): A2ALimits {
  const out: A2ALimits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as LimitName[]) {
    const value = partial?.[key];
    if (value !== undefined) {
      if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${key} must be a positive integer`);
      out[key] = value;
    }
  }
  return out;
}

/** `8 MiB`, `512 KiB`, `1000 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
