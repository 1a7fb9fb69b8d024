/**
 * Building blocks shared by every wire schema: JSON values, metadata maps, and the
 * `wireObject` helper that gives all A2A objects the same leniency rules.
 *
 * A2A 1.0 JSON is ProtoJSON (ADR-001): lowerCamelCase names, but parsers also accept the
 * proto's snake_case names (the 1.0 TCK sends `history_length`, `task_id`, `context_id`).
 * Unknown fields are ignored (dropped from the parsed object, so what we store is plain JSON).
 *
 * Bounded: ids are at most {@link MAX_ID_LENGTH} characters (they go into workflow history and
 * search attributes), and every wire object and every string in a list or map is `guarded`
 * (see ./bounded-parse.ts), so a validation stops early on a body full of invalid values.
 *
 * A wire object's type is an interface over its schema's output
 * (`interface Task extends z.infer<typeof TaskWire> {}`), and a schema that we parse with or that
 * others nest is exported typed by it (`TaskSchema: z.ZodType<Task> = TaskWire`). A schema that nests
 * another then refers to it by name, so the emitted declarations spell each object out once instead
 * of once per place it is used (they were 3 MB, most of it the same objects over and over).
 */
import { z } from 'zod';
import { guarded } from './bounded-parse.js';

/** Any JSON value: what a `google.protobuf.Value` / `Struct` holds on the wire. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON value that must be present (`null` is a value; a missing key is not). */
export const JsonValueSchema = z.custom<JsonValue>((value) => value !== undefined, {
  error: 'expected a JSON value',
});

/** Free-form `metadata` (a `google.protobuf.Struct`). */
export const MetadataSchema = z.record(z.string(), z.unknown(), { error: 'expected an object' });
/** Free-form metadata of an A2A object (a JSON object). See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type Metadata = z.infer<typeof MetadataSchema>;

/** Longest task, context, message or artifact id accepted from an agent. */
export const MAX_ID_LENGTH = 256;

const tooLong = { error: `must be at most ${MAX_ID_LENGTH} characters` };

/** A non-empty string of at most 256 characters, for identifiers whose absence would make the object useless. */
export const IdSchema = z
  .string({ error: 'expected a non-empty string' })
  .min(1, { error: 'must not be empty' })
  .max(MAX_ID_LENGTH, tooLong);

/** An optional id (a context id, the task id of a message), at most 256 characters. */
export const OptionalIdSchema = z.string().max(MAX_ID_LENGTH, tooLong).optional();

/** A list of strings (tags, modes, extension URIs, task ids). */
export const StringListSchema = z.array(guarded(z.string()));

/** A map of strings (OAuth scopes, ErrorInfo metadata). */
export const StringMapSchema = z.record(z.string(), guarded(z.string()));

function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Renames snake_case keys to the camelCase names the schema knows (`history_length` →
 * `historyLength`) when the camelCase key is absent. Keys the schema does not know are left
 * alone (they are dropped anyway), and nested free-form values are never touched.
 */
export function camelizeKnownKeys(known: ReadonlySet<string>): (value: unknown) => unknown {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    let renamed: Record<string, unknown> | undefined;
    for (const [key, v] of Object.entries(value)) {
      if (!key.includes('_')) continue;
      const camel = snakeToCamel(key);
      if (camel === key || !known.has(camel) || Object.hasOwn(value, camel)) continue;
      renamed ??= { ...value };
      delete renamed[key];
      renamed[camel] = v;
    }
    return renamed ?? value;
  };
}

/** What {@link wireObject} returns: a schema whose output is the object `Shape` describes. */
type WireObject<Shape extends z.ZodRawShape> = z.ZodType<z.output<z.ZodObject<Shape>>>;

/**
 * An A2A wire object: a zod object (unknown keys dropped) that also accepts the snake_case
 * spelling of its fields. With `exactlyOneOf`, the object must carry exactly one of those keys
 * (a ProtoJSON oneof); the check sees the object as received, so the error quotes it whole.
 */
export function wireObject<Shape extends z.ZodRawShape>(
  shape: Shape,
  options: { exactlyOneOf?: readonly string[]; message?: string } = {},
): WireObject<Shape> {
  const object = z.object(shape, { error: 'expected an object' });
  const { exactlyOneOf, message } = options;
  const inner = exactlyOneOf
    ? z
        .unknown()
        .check((ctx) => {
          const value = ctx.value;
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
          const record = value as Record<string, unknown>;
          const present = exactlyOneOf.filter((k) => record[k] !== undefined);
          if (present.length !== 1) {
            ctx.issues.push({
              code: 'custom',
              message: message ?? `expected exactly one of ${listOr(exactlyOneOf)}`,
              input: value,
            });
          }
        })
        .pipe(object)
    : object;
  return guarded(z.preprocess(camelizeKnownKeys(new Set(Object.keys(shape))), inner));
}

/** `{ a: A } | { b: B } | …` for a shape `{ a: schemaA, b: schemaB, … }`. */
export type OneOf<Shape extends Record<string, z.ZodType>> = {
  [K in keyof Shape]: { [P in K]: z.output<Shape[K]> };
}[keyof Shape];

/**
 * A ProtoJSON `oneof` whose JSON form is "exactly one of these keys is present"
 * (`{"task":…}` | `{"message":…}` …). Each member is parsed with its own schema, so an
 * error names the real path (`task.status.state`), not "no union member matched".
 */
export function oneofKeys<Shape extends Record<string, z.ZodType>>(
  shape: Shape,
  what: string,
): z.ZodType<OneOf<Shape>> {
  const keys = Object.keys(shape);
  const optionalShape = Object.fromEntries(keys.map((k) => [k, (shape[k] as z.ZodType).optional()])) as {
    [K in keyof Shape]: z.ZodOptional<Shape[K]>;
  };
  return wireObject(optionalShape, {
    exactlyOneOf: keys,
    message: `expected exactly one of ${listOr(keys)} in ${what}`,
  }).transform((value) => value as unknown as OneOf<Shape>);
}

/** "a, b or c" */
export function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
