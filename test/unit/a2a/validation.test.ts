import { describe, expect, it } from 'vitest';
import {
  AgentCardSchema,
  InvalidResponseError,
  MessageSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskSchema,
} from '../../../a2a/index.js';
import { parseJsonText, parseWire, type ParseContext } from '../../../a2a/validation.js';

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
