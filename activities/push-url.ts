/**
 * Where an agent delivers the updates of one delegation's task:
 * `<publicUrl>/a2a/push/<urlencoded workflowId>/<urlencoded taskId>`. The path names the workflow
 * to signal, so the receiver needs no lookup; the credential binds both ids.
 */

/** The receiver's path prefix. */
export const PUSH_PATH_PREFIX = '/a2a/push/';

/** The webhook URL the push config of (`workflowId`, `taskId`) points at. */
export function pushUrl(publicUrl: string, workflowId: string, taskId: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  return `${base}${PUSH_PATH_PREFIX}${encodeURIComponent(workflowId)}/${encodeURIComponent(taskId)}`;
}

/** The ids in a delivery path (`/a2a/push/<workflowId>/<taskId>`, query ignored), or undefined when it is not one. */
export function parsePushPath(path: string): { workflowId: string; taskId: string } | undefined {
  const pathname = path.split('?', 1)[0] ?? '';
  if (!pathname.startsWith(PUSH_PATH_PREFIX)) return undefined;
  const segments = pathname.slice(PUSH_PATH_PREFIX.length).split('/');
  if (segments.length !== 2 || !segments[0] || !segments[1]) return undefined;
  try {
    return { workflowId: decodeURIComponent(segments[0]), taskId: decodeURIComponent(segments[1]) };
  } catch {
    return undefined; // malformed percent-encoding
  }
}
