import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../a2a/index.js';
import { InvalidResponseError, ResponseTooLargeError } from '../../../a2a/errors.js';
import { AgentCardSchema } from '../../../a2a/schemas/agent-card.js';
import { MessageSchema } from '../../../a2a/schemas/message.js';
import { SendMessageResponseSchema, StreamResponseSchema } from '../../../a2a/schemas/events.js';
import { TaskSchema } from '../../../a2a/schemas/task.js';
import { exceedsDepth, parseJsonText, parseWire, type ParseContext } from '../../../a2a/validation.js';

const getTask: ParseContext = {
  operation: 'GetTask',
  agentUrl: 'http://127.0.0.1:4000/a2a/rest',
  what: 'Task',
  protocolVersion: '1.0',
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidResponseError);
    return (error as Error).message;
  }
  throw new Error('expected an InvalidResponseError');
}

describe('invalid bodies become InvalidResponseError naming operation, agent, field and value', () => {
  it('names an unknown task state', () => {
    expect(
      messageOf(() => parseWire(TaskSchema, { id: 'T', status: { state: 'done' } }, getTask)),
    ).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: status.state: expected a TASK_STATE_* value, got "done"; the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
  });

  it('names a task without id', () => {
    expect(
      messageOf(() => parseWire(TaskSchema, { status: { state: 'TASK_STATE_WORKING' } }, getTask)),
    ).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: id: missing, expected a non-empty string; the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
  });

  it('names a part with no content, quoting the part as received', () => {
    const task = {
      id: 'T',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ kind: 'text' }] },
      },
    };
    expect(messageOf(() => parseWire(TaskSchema, task, getTask))).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: status.message.parts[0]: a part needs exactly one of text, raw, url or data, got {"kind":"text"}; the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
  });

  it('names a part with two contents', () => {
    expect(
      messageOf(() =>
        parseWire(
          MessageSchema,
          { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a', url: 'http://x' }] },
          { ...getTask, what: 'Message' },
        ),
      ),
    ).toContain('parts[0]: a part needs exactly one of text, raw, url or data, got {"text":"a","url":"http://x"}');
  });

  it('names an artifact without artifactId, and counts further problems', () => {
    const task = {
      id: 'T',
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'x' }] }, { artifactId: '', parts: [] }],
    };
    expect(messageOf(() => parseWire(TaskSchema, task, getTask))).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest returned an invalid Task: artifacts[0].artifactId: missing, expected a non-empty string (and 1 more problem); the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
  });

  it('shortens long offending values to about 80 characters', () => {
    const message = messageOf(() => parseWire(TaskSchema, { id: 'T', status: { state: 'x'.repeat(500) } }, getTask));
    const quoted = /got (".*?…)/.exec(message)?.[1] ?? '';
    expect(quoted.length).toBeLessThanOrEqual(80);
    expect(message).not.toContain('x'.repeat(100));
  });

  it('names a stream event that is none of the four kinds', () => {
    expect(
      messageOf(() =>
        parseWire(
          StreamResponseSchema,
          { kind: 'status-update' },
          { ...getTask, operation: 'SubscribeToTask', what: 'StreamResponse' },
        ),
      ),
    ).toMatchInlineSnapshot(
      `"SubscribeToTask from http://127.0.0.1:4000/a2a/rest returned an invalid StreamResponse: expected exactly one of task, message, statusUpdate or artifactUpdate in a StreamResponse, got {"kind":"status-update"}; the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
  });

  it('names the nested path inside a oneof wrapper', () => {
    expect(
      messageOf(() =>
        parseWire(
          SendMessageResponseSchema,
          { task: { id: 'T', status: {} } },
          { ...getTask, operation: 'SendMessage', what: 'SendMessageResponse' },
        ),
      ),
    ).toContain('returned an invalid SendMessageResponse: task.status.state: missing, expected a TASK_STATE_* value');
  });

  it('names a card without interfaces', () => {
    expect(
      messageOf(() =>
        parseWire(
          AgentCardSchema,
          { name: 'x', supportedInterfaces: [] },
          { operation: 'GetAgentCard', agentUrl: 'http://a/.well-known/agent-card.json', what: 'agent card' },
        ),
      ),
    ).toMatchInlineSnapshot(
      `"GetAgentCard from http://a/.well-known/agent-card.json returned an invalid agent card: supportedInterfaces: must list at least one interface, got []; the agent does not follow the A2A wire format, so retrying will not help."`,
    );
  });

  it('is not retryable and carries code INVALID_AGENT_RESPONSE and the field path', () => {
    try {
      parseWire(TaskSchema, { id: 'T', status: { state: 'done' } }, getTask);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_AGENT_RESPONSE',
        retryable: false,
        path: 'status.state',
        operation: 'GetTask',
      });
    }
  });

  it('reports a body that is not JSON, quoting its start', () => {
    expect(messageOf(() => parseJsonText('<html>Bad gateway</html>', getTask))).toMatchInlineSnapshot(
      `"GetTask from http://127.0.0.1:4000/a2a/rest returned a body that is not JSON ("<html>Bad gateway</html>") where a Task was expected; the agent does not follow the A2A 1.0 wire format, so retrying will not help."`,
    );
    expect(messageOf(() => parseJsonText('', getTask))).toContain('returned an empty body where a Task was expected');
  });
});

describe('validation within bounds', () => {
  const secret = 's3cr3t-t0ken-value';
  const withSecrets: ParseContext = { ...getTask, secrets: [`Bearer ${secret}`, secret] };

  function failureOf(fn: () => unknown): Error {
    try {
      fn();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a failure');
  }

  /** The messages of the error and its causes (with `stacks`, their stacks too), as one text. */
  function chainText(error: unknown, stacks = false): string {
    const texts: string[] = [];
    for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth += 1) {
      texts.push(`${e.name}: ${e.message}`, stacks ? (e.stack ?? '') : '');
    }
    return texts.join('\n');
  }

  it('refuses a 20,000-deep body as an invalid response, without a RangeError', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const error = failureOf(() => parseJsonText(deep, getTask));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('returned JSON nested deeper than 64 levels where a Task was expected');
    expect(error.message).toContain('A2A_MAX_JSON_DEPTH');
    expect(parseJsonText(`{"a":"${'['.repeat(100)}"}`, getTask)).toEqual({ a: '['.repeat(100) });
    expect(parseJsonText(`${'['.repeat(64)}${']'.repeat(64)}`, getTask)).toBeDefined();
    expect(() =>
      parseJsonText(`${'['.repeat(3)}${']'.repeat(3)}`, { ...getTask, limits: { ...DEFAULT_LIMITS, maxJsonDepth: 2 } }),
    ).toThrow(InvalidResponseError);
  });

  it('fails a 300 KB invalid value in a few hundred bytes, message and cause, and never quotes it whole', () => {
    const huge = `${secret} ${'v'.repeat(300_000)}`;
    const error = failureOf(() => parseWire(TaskSchema, { id: 'T', status: { state: huge } }, withSecrets));
    expect(error).toBeInstanceOf(InvalidResponseError);
    const text = chainText(error);
    expect(error.message.length).toBeLessThan(400);
    expect(text.length).toBeLessThan(800);
    expect(chainText(error, true)).not.toContain(secret);
    expect(text).not.toContain('v'.repeat(100));
    expect(error.message).toContain('status.state: expected a TASK_STATE_* value, got "[redacted] vvv');
  });

  it('quotes at most 80 scrubbed characters of a body that is not JSON', () => {
    const error = failureOf(() => parseJsonText(`<html>token=${secret}${'x'.repeat(10_000)}`, withSecrets));
    expect(error.message).toContain('returned a body that is not JSON ("<html>token=[redacted]xxx');
    expect(error.message).not.toContain(secret);
    expect(error.message.length).toBeLessThan(300);
    expect(error.cause).toBeUndefined();
  });

  it('never leaves a cut secret behind when the quote ends inside it', () => {
    const body = `${'a'.repeat(70)}${secret}`;
    const message = failureOf(() => parseJsonText(body, withSecrets)).message;
    expect(message).not.toContain(secret.slice(0, 8));
  });

  it('scrubs a secret echoed into a key of the field path', () => {
    const card = {
      name: 'x',
      supportedInterfaces: [{ url: 'http://a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      securitySchemes: { [secret]: 5 },
    };
    const error = failureOf(() => parseWire(AgentCardSchema, card, { ...withSecrets, what: 'agent card' }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(chainText(error, true)).not.toContain(secret);
    expect((error as InvalidResponseError).path).toBe('securitySchemes.[redacted]');
  });

  it('refuses ids longer than 256 characters', () => {
    const long = 'i'.repeat(257);
    for (const value of [
      { id: long, status: { state: 'TASK_STATE_WORKING' } },
      { id: 'T', contextId: long, status: { state: 'TASK_STATE_WORKING' } },
      { id: 'T', status: { state: 'TASK_STATE_WORKING' }, artifacts: [{ artifactId: long, parts: [] }] },
      { id: 'T', status: { state: 'TASK_STATE_WORKING', message: { messageId: long, role: 'ROLE_AGENT', parts: [] } } },
    ]) {
      expect(failureOf(() => parseWire(TaskSchema, value, getTask)).message).toContain(
        'must be at most 256 characters, got "iiii',
      );
    }
    expect(
      parseWire(TaskSchema, { id: 'i'.repeat(256), status: { state: 'TASK_STATE_WORKING' } }, getTask).id,
    ).toHaveLength(256);
  });

  it('stops validating a body full of invalid values after the hundredth', () => {
    const history = Array.from({ length: 1_000_000 }, () => 1);
    const error = failureOf(() =>
      parseWire(TaskSchema, { id: 'T', status: { state: 'TASK_STATE_WORKING' }, history }, getTask),
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('returned an invalid Task: more than 100 values are invalid, the first being 1;');
    const tags = {
      name: 'x',
      supportedInterfaces: [{ url: 'http://a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      skills: [{ id: 's', name: 's', tags: history }],
    };
    expect(failureOf(() => parseWire(AgentCardSchema, tags, { ...getTask, what: 'agent card' })).message).toContain(
      'more than 100 values are invalid',
    );
  });

  it('refuses more artifacts per task or parts per artifact than the limits allow, before validating them', () => {
    const limits = { ...DEFAULT_LIMITS, maxArtifactsPerTask: 2, maxPartsPerArtifact: 3 };
    const artifact = (parts: number) => ({
      artifactId: 'a',
      parts: Array.from({ length: parts }, () => ({ text: 'x' })),
    });
    const task = (artifacts: unknown[]) => ({ id: 'T', status: { state: 'TASK_STATE_WORKING' }, artifacts });
    const ctx = { ...getTask, limits };
    expect(() => parseWire(TaskSchema, task([artifact(1), artifact(1), artifact(1)]), ctx)).toThrow(
      expect.objectContaining({ code: 'RESPONSE_TOO_LARGE', limit: 'maxArtifactsPerTask', max: 2 }),
    );
    expect(() => parseWire(SendMessageResponseSchema, { task: task([artifact(4)]) }, ctx)).toThrow(
      expect.objectContaining({ limit: 'maxPartsPerArtifact' }),
    );
    const update = { artifactUpdate: { taskId: 'T', artifact: artifact(4) } };
    expect(() => parseWire(StreamResponseSchema, update, ctx)).toThrow(ResponseTooLargeError);
    expect(parseWire(TaskSchema, task([artifact(3), artifact(3)]), ctx).artifacts).toHaveLength(2);
  });
});

describe('exceedsDepth', () => {
  /** Character by character, as JSON's grammar reads it: the reference the fast scan must agree with. */
  function reference(text: string, maxDepth: number): boolean {
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') {
        if (++depth > maxDepth) return true;
      } else if (c === '}' || c === ']') depth--;
    }
    return false;
  }

  it('skips brackets inside strings, escaped quotes and runs of backslashes included', () => {
    expect(exceedsDepth('[[["a"]]]', 2)).toBe(true);
    expect(exceedsDepth('["[[[[", "\\"[[[", "\\\\", [1]]', 2)).toBe(false);
    expect(exceedsDepth('["\\\\\\"[[[", [[1]]]', 2)).toBe(true);
    expect(exceedsDepth('["\\\\", [[1]]]', 2)).toBe(true);
    expect(exceedsDepth('["unterminated [[[[', 1)).toBe(false);
    expect(exceedsDepth(`{"text":"${'x'.repeat(7 * 1024 * 1024)}"}`, 1)).toBe(false);
  });

  it('agrees with a character-by-character scan on 2,000 random texts (fixed seed)', () => {
    let seed = 0x2545f491;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const alphabet = ['[', ']', '{', '}', '"', '\\', 'a', ','];
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
      const maxDepth = next() % 4;
      expect(exceedsDepth(text, maxDepth), text).toBe(reference(text, maxDepth));
    }
  });
});
