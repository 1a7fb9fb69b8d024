/**
 * A GetTask body too large to hold, read as it arrives (issue 22): poll mode's reads and push
 * mode's final read get the whole task, and a task's files so far can pass `maxBodyBytes` by far.
 * With `CallOptions.fileBytes` the HTTP+JSON and JSON-RPC bindings hand such a body to a
 * {@link StreamedEventReader} (the one a stream's oversized event goes through: a JSON-RPC
 * response's `result` and an HTTP+JSON task have the shapes it routes), then validate the
 * assembled JSON as a held body is validated and attach the spilled bytes to the task's parts.
 */
import { ResponseTooLargeError, type ErrorContext } from './errors.js';
import type { HttpRequest } from './http.js';
import { DEFAULT_LIMITS } from './limits.js';
import type { Task } from './schemas/task.js';
import { StreamedEventReader, type StreamedEvent } from './streamed-event.js';
import type { CallOptions } from './transport.js';
import { invalid, type ParseContext } from './validation.js';

type FileBytes = NonNullable<CallOptions['fileBytes']>;

/** How the HTTP client reads such a body: from `fromBytes` (at most the cap) on, through a reader bounded as the body is. */
export function taskBodyReader(fileBytes: FileBytes, ctx: ParseContext): NonNullable<HttpRequest['streamedBody']> {
  const limits = ctx.limits ?? DEFAULT_LIMITS;
  const where: ErrorContext = {
    ...(ctx.operation !== undefined ? { operation: ctx.operation } : {}),
    ...(ctx.agentUrl !== undefined ? { agentUrl: ctx.agentUrl } : {}),
  };
  return {
    fromBytes: Math.min(fileBytes.fromBytes ?? limits.maxBodyBytes, limits.maxBodyBytes),
    reader: () =>
      new StreamedEventReader({
        maxBytes: fileBytes.maxBytes,
        maxRemainderBytes: limits.maxBodyBytes,
        maxDepth: limits.maxJsonDepth,
        tooLarge: () =>
          new ResponseTooLargeError({ ...where, limit: 'maxDelegationStoredBytes', max: fileBytes.maxBytes }),
        tooLargeEvent: () => new ResponseTooLargeError({ ...where, limit: 'maxBodyBytes', max: limits.maxBodyBytes }),
        ...(fileBytes.maxTextBytes !== undefined
          ? {
              maxTextBytes: fileBytes.maxTextBytes,
              tooMuchText: () =>
                new ResponseTooLargeError({ ...where, limit: 'maxDelegationBytes', max: fileBytes.maxTextBytes! }),
            }
          : {}),
        invalid: (problem) => invalid(problem, ctx, ''),
        notJson: () => invalid('a response body too large to hold that is not JSON', ctx, ''),
      }),
  };
}

/**
 * The task of a body read as it arrived ({@link taskBodyReader}; a held body is decoded as usual):
 * `decode` validates its JSON as for a held body, then the spilled bytes are attached to the
 * task's file parts and live until the disposal handed to `fileBytes.onSpilled` is called (at
 * once if the task is refused).
 */
export function spilledTask(streamed: unknown, fileBytes: FileBytes, decode: (json: unknown) => Task): Task {
  const { json, spill } = streamed as StreamedEvent;
  try {
    const task = decode(json);
    spill.attach(task);
    fileBytes.onSpilled(() => spill.dispose());
    return task;
  } catch (error) {
    spill.dispose();
    throw error;
  }
}
