/**
 * From an open HTTP response to validated StreamResponse objects, for both bindings.
 *
 * - Branches on `Content-Type`: a streaming call may be answered with plain JSON (an error
 *   raised before the first event, or for JSON-RPC even a single result) instead of SSE.
 * - `event: error` carries `{"error":…}` (REST) or a JSON-RPC error response: it is thrown as
 *   the matching A2AError.
 * - The idle timer is restarted by every event and comment, and paused while the consumer
 *   holds an event.
 * - However the iteration ends (done, error, `break`, abort, a passed byte cap), the request is
 *   released.
 * - With `fileBytes`, an event too large to hold is read as it arrives (see streamed-event.ts);
 *   its spilled file bytes live until the consumer asks for the next event.
 */
import { errorFromHttpResponse, headerValue } from './error-mapping.js';
import { ResponseTooLargeError, type A2AError } from './errors.js';
import type { OpenStream } from './http.js';
import type { StreamResponse } from './schemas/events.js';
import { readSseEvents, type SseEvent } from './sse.js';
import { StreamedEventReader, type StreamedEvent } from './streamed-event.js';
import type { StreamOptions } from './transport.js';
import { DEFAULT_LIMITS } from './limits.js';
import { invalid, parseJsonText, type ParseContext } from './validation.js';

/** One decoded event; `final` ends the stream (0.3 `final: true`, or a direct Message reply). */
export interface DecodedEvent {
  response: StreamResponse;
  final: boolean;
}

/** How a binding/version reads the JSON inside a stream. */
export interface StreamDecoder {
  /** An SSE `data` payload, or a plain JSON answer: the event, or throws the error it carries. */
  decode(json: unknown): DecodedEvent;
  /** The payload of an `event: error` SSE event. */
  error(json: unknown): A2AError;
}

export function isEventStream(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().split(';')[0]?.trim() === 'text/event-stream';
}

export async function* streamResponses(
  stream: OpenStream,
  decoder: StreamDecoder,
  ctx: ParseContext,
  fileBytes?: StreamOptions['fileBytes'],
): AsyncGenerator<StreamResponse, void, undefined> {
  try {
    if (stream.status < 200 || stream.status >= 300) {
      const text = await stream.text();
      throw errorFromHttpResponse(stream.status, stream.headers, text, stream.scope);
    }
    if (!isEventStream(headerValue(stream.headers, 'content-type'))) {
      const text = await stream.text();
      const decoded = decoder.decode(parseJsonText(text, ctx));
      stream.pause();
      yield decoded.response;
      return;
    }
    const { operation, agentUrl } = stream.scope;
    const tooLarge = (
      limit: 'maxSseLineBytes' | 'maxSseEventBytes' | 'maxDelegationStoredBytes' | 'maxDelegationBytes',
      max: number,
    ) =>
      new ResponseTooLargeError({
        ...(operation !== undefined ? { operation } : {}),
        ...(agentUrl !== undefined ? { agentUrl } : {}),
        limit,
        max,
      });
    const maxEventBytes = stream.limits.maxSseEventBytes;
    const events = readSseEvents(stream.body, {
      onComment: () => stream.touch(),
      maxLineBytes: stream.limits.maxSseLineBytes,
      maxEventBytes,
      tooLarge,
      ...(fileBytes
        ? {
            ...(fileBytes.fromBytes !== undefined ? { oversizedFromBytes: fileBytes.fromBytes } : {}),
            oversized: () =>
              new StreamedEventReader({
                maxBytes: fileBytes.maxBytes,
                maxRemainderBytes: maxEventBytes,
                maxDepth: (ctx.limits ?? DEFAULT_LIMITS).maxJsonDepth,
                tooLarge: () => tooLarge('maxDelegationStoredBytes', fileBytes.maxBytes),
                ...(fileBytes.maxTextBytes !== undefined
                  ? {
                      maxTextBytes: fileBytes.maxTextBytes,
                      tooMuchText: () => tooLarge('maxDelegationBytes', fileBytes.maxTextBytes!),
                    }
                  : {}),
                tooLargeEvent: () => tooLarge('maxSseEventBytes', maxEventBytes),
                invalid: (problem) => invalid(problem, ctx, ''),
                notJson: () => invalid('an event too large to hold that is not JSON', ctx, ''),
                onData: () => {
                  stream.touch();
                  fileBytes.onProgress?.();
                },
              }),
          }
        : {}),
    });
    for await (const event of events) {
      if (event.streamed) {
        if (yield* streamedResponse(event, decoder, stream)) return;
        continue;
      }
      if (event.event === 'error') throw decoder.error(parseJsonText(event.data, { ...ctx, what: 'error event' }));
      if (event.data.trim() === '') {
        stream.touch();
        continue;
      }
      const decoded = decoder.decode(parseJsonText(event.data, ctx));
      stream.pause();
      yield decoded.response;
      if (decoded.final) return;
      stream.touch();
    }
  } catch (error) {
    throw stream.classify(error);
  } finally {
    stream.close();
  }
}

/** An event read as it arrived: decoded like any other, its file bytes attached to its parts while the consumer holds it. */
async function* streamedResponse(
  event: SseEvent,
  decoder: StreamDecoder,
  stream: OpenStream,
): AsyncGenerator<StreamResponse, boolean, undefined> {
  const { json, spill } = event.streamed as StreamedEvent;
  try {
    const { response, final } = decoder.decode(json);
    spill.attach(
      'task' in response ? response.task : undefined,
      'artifactUpdate' in response ? response.artifactUpdate.artifact : undefined,
    );
    stream.pause();
    yield response;
    stream.touch();
    return final;
  } finally {
    spill.dispose();
  }
}
