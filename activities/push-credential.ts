/**
 * The per-delegation push credential: `base64url(HMAC-SHA256(secret, workflowId + "\n" + taskId))`.
 * The activity that registers a push config and the webhook receiver derive it from the receiver
 * secret, so it never travels through workflow inputs, results or history.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The credential an agent must present when it delivers updates of `taskId` to `workflowId`.
 * @throws Error when an id contains a line feed (the separator: it would make two pairs share a credential).
 */
export function pushCredential(secret: string, workflowId: string, taskId: string): string {
  if (workflowId.includes('\n') || taskId.includes('\n')) {
    throw new Error(
      'A workflow id or task id with a line feed cannot be given a push credential; use ids without line breaks.',
    );
  }
  return createHmac('sha256', secret).update(`${workflowId}\n${taskId}`).digest('base64url');
}

/**
 * True when `given` is the credential of (`workflowId`, `taskId`) under one of `secrets` (the
 * current one first, then those being rotated out). Compared in constant time.
 */
export function isPushCredential(
  given: string,
  secrets: readonly string[],
  workflowId: string,
  taskId: string,
): boolean {
  if (workflowId.includes('\n') || taskId.includes('\n')) return false;
  const presented = Buffer.from(given, 'utf8');
  let valid = false;
  for (const secret of secrets) {
    const expected = Buffer.from(pushCredential(secret, workflowId, taskId), 'utf8');
    // Every secret is checked (no early exit), so the time does not tell which one matched.
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) valid = true;
  }
  return valid;
}
