/**
 * `Part` (A2A 1.0 §4): a oneof `content` — the key that is present gives the kind —
 * plus the shared optional `metadata`, `filename` and `mediaType`.
 *
 * ```json
 * {"text":"hi","mediaType":"text/plain"}
 * {"raw":"<base64>","filename":"a.png","mediaType":"image/png"}
 * {"url":"https://…/doc.pdf","filename":"doc.pdf","mediaType":"application/pdf"}
 * {"data":{"k":1},"mediaType":"application/json"}
 * ```
 */
import { z } from 'zod';
import { JsonValueSchema, MetadataSchema, wireObject } from './json.js';

const shared = {
  /** The agent's own annotations of the part (keys under `a2aTemporal.` are ours and dropped from agents). */
  metadata: MetadataSchema.optional(),
  /** The file's name, where the part is (or came from) a file. */
  filename: z.string().optional(),
  /** The content's media type, e.g. `text/markdown` or `application/pdf`. */
  mediaType: z.string().optional(),
};

export const TextPartSchema = wireObject({
  /** The text. */
  text: z.string(),
  ...shared,
});
export const RawPartSchema = wireObject({
  /** The bytes, base64-encoded. */
  raw: z.string(),
  ...shared,
});
export const UrlPartSchema = wireObject({
  /** Where the file is; the worker never fetches it on its own (see docs/files.md). */
  url: z.string(),
  ...shared,
});
export const DataPartSchema = wireObject({
  /** Any JSON value. */
  data: JsonValueSchema,
  ...shared,
});

/** An A2A part that holds text. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface TextPart extends z.infer<typeof TextPartSchema> {}
/** An A2A part that holds bytes (base64 on the wire). See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface RawPart extends z.infer<typeof RawPartSchema> {}
/** An A2A part that refers to a file by URL. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface UrlPart extends z.infer<typeof UrlPartSchema> {}
/** An A2A part that holds structured JSON data. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export interface DataPart extends z.infer<typeof DataPartSchema> {}
/** One part of an A2A message or artifact: text, bytes, a URL or data. See [docs/guide.md](../../docs/guide.md#the-a2a-client-on-its-own). */
export type Part = TextPart | RawPart | UrlPart | DataPart;

const CONTENT_KEYS = ['text', 'raw', 'url', 'data'] as const;

/** A part with exactly one content key; "no content" and "two contents" are both errors. */
export const PartSchema: z.ZodType<Part> = wireObject(
  {
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: JsonValueSchema.optional(),
    ...shared,
  },
  { exactlyOneOf: CONTENT_KEYS, message: 'a part needs exactly one of text, raw, url or data' },
).transform((value) => value as Part);

/** A text part, for building messages: `textPart('hello')`. */
export function textPart(text: string, mediaType = 'text/plain'): TextPart {
  return { text, mediaType };
}

/** A data part, for building messages: `dataPart({ name: 'payment-service' })`. */
export function dataPart(data: z.infer<typeof JsonValueSchema>, mediaType = 'application/json'): DataPart {
  return { data, mediaType };
}
