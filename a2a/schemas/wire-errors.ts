/**
 * Error bodies as they arrive on the wire (A2A 1.0 §7). The envelopes are read leniently by
 * a2a/error-mapping.ts (any body must map to some error); the ErrorInfo details are validated here.
 *
 * - JSON-RPC: `{"jsonrpc":"2.0","id":…,"error":{"code":-32001,"message":"…","data":[ErrorInfo…]}}`
 *   (in 0.3 `data` was free-form, so anything is accepted there).
 * - HTTP+JSON (google.rpc.Status, AIP-193):
 *   `{"error":{"code":404,"status":"NOT_FOUND","message":"…","details":[ErrorInfo…]}}`.
 * - ErrorInfo: `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org","metadata":{…}}`.
 */
import { z } from 'zod';
import { boundedSafeParse } from './bounded-parse.js';
import { StringMapSchema } from './json.js';

export const ErrorInfoSchema = z.object({
  '@type': z.string().optional(),
  reason: z.string(),
  domain: z.string().optional(),
  metadata: StringMapSchema.optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/** Details read per error: an agent may send a million, we look at the first few. */
const MAX_DETAILS = 16;

/** The ErrorInfo details of an error (`data` of a JSON-RPC error, `details` of a google.rpc.Status). */
export function errorInfos(details: unknown): ErrorInfo[] {
  if (!Array.isArray(details)) return [];
  const infos: ErrorInfo[] = [];
  for (const d of details.slice(0, MAX_DETAILS)) {
    try {
      const parsed = boundedSafeParse(ErrorInfoSchema, d);
      if (parsed.success) infos.push(parsed.data);
    } catch {
      // Too many invalid metadata values: not an ErrorInfo we can use.
    }
  }
  return infos;
}
