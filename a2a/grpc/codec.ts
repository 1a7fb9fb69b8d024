/**
 * Between our A2A 1.0 JSON objects and the protobuf messages of the gRPC binding, through the
 * code generated from the official `a2a.proto` (./gen, by protoc-gen-es): nothing here knows a
 * field of the wire format. Requests are our JSON read with ProtoJSON rules (`fromJson`) and
 * encoded; responses are decoded, written back as ProtoJSON (`toJson`: the same JSON the HTTP
 * bindings receive) and then validated by the caller with the same zod schemas, so the rest of
 * the code sees the same objects whatever the binding.
 *
 * Decoding is bounded like reading JSON: the bytes of a message are capped (`maxBodyBytes`), the
 * decoder's recursion is capped (protobuf-es `recursionLimit`), and the JSON it becomes may not
 * nest deeper than `maxJsonDepth` (a `Struct`/`Value` is arbitrary JSON).
 */
import { fromBinary, fromJson, toBinary, toJson, type DescMessage, type JsonValue } from '@bufbuild/protobuf';
import { InvalidResponseError, ResponseTooLargeError } from '../errors.js';
import { clip, scrubbed, where } from '../error-text.js';
import { DEFAULT_LIMITS, LIMIT_ENV } from '../limits.js';
import type { ParseContext } from '../validation.js';

/** Our JSON request as the protobuf message `schema` describes, in its binary encoding. */
export function encodeMessage(schema: DescMessage, json: unknown): Uint8Array {
  // Through JSON text first: ProtoJSON has no `undefined` (an optional field we leave out).
  const plain = JSON.parse(JSON.stringify(json)) as JsonValue;
  return toBinary(schema, fromJson(schema, plain, { ignoreUnknownFields: true }));
}

/**
 * A response message as ProtoJSON, within the caps of `ctx.limits`.
 * @throws ResponseTooLargeError (over `maxBodyBytes`), InvalidResponseError (not a valid message, or nested too deep)
 */
export function decodeMessage(schema: DescMessage, bytes: Uint8Array, ctx: ParseContext): unknown {
  const limits = ctx.limits ?? DEFAULT_LIMITS;
  const context = {
    ...(ctx.operation ? { operation: ctx.operation } : {}),
    ...(ctx.agentUrl ? { agentUrl: ctx.agentUrl } : {}),
  };
  if (bytes.byteLength > limits.maxBodyBytes)
    throw new ResponseTooLargeError({ ...context, limit: 'maxBodyBytes', max: limits.maxBodyBytes });
  const invalid = (problem: string) =>
    new InvalidResponseError(
      `${where(ctx, 'from')} returned ${problem} where a ${schema.typeName} message was expected; the agent does not follow the A2A 1.0 gRPC binding, so retrying will not help.`,
      { ...context, path: '' },
    );
  let json: unknown;
  try {
    // A JSON level of a Struct is two messages deep (Value, Struct): room for maxJsonDepth of it, checked exactly below.
    const message = fromBinary(schema, bytes, { recursionLimit: 2 * limits.maxJsonDepth + 16 });
    json = toJson(schema, message);
  } catch (error) {
    const why = error instanceof Error ? scrubbed(error.message, ctx.secrets, 160) : 'an unreadable message';
    throw invalid(`bytes that do not decode (${clip(why, 160)})`);
  }
  if (nestedDeeperThan(json, limits.maxJsonDepth)) {
    throw invalid(
      `a message nested deeper than ${limits.maxJsonDepth} levels (raise ${LIMIT_ENV.maxJsonDepth}, client option limits.maxJsonDepth, if the agent really nests that deep)`,
    );
  }
  return json;
}

/** True when `value` opens more than `max` objects or arrays at once. Iterative: no recursion, whatever the input. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
