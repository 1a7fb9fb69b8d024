import { describe, expect, it } from 'vitest';
import { type StreamResponse } from '../../../../a2a/index.js';
import { AgentCardSchema } from '../../../../a2a/schemas/agent-card.js';
import {
  ListTaskPushNotificationConfigsResponseSchema,
  TaskPushNotificationConfigSchema,
} from '../../../../a2a/schemas/push-config.js';
import { ListTasksResponseSchema } from '../../../../a2a/schemas/requests.js';
import { MessageSchema } from '../../../../a2a/schemas/message.js';
import { SendMessageResponseSchema, StreamResponseSchema } from '../../../../a2a/schemas/events.js';
import { TaskSchema } from '../../../../a2a/schemas/task.js';
import {
  CAPTURED_CANCELED_TASK,
  CAPTURED_CARD,
  CAPTURED_GET_TASK,
  CAPTURED_LAX_MESSAGE,
  CAPTURED_LIST_TASKS,
  CAPTURED_PUSH_CONFIG,
  CAPTURED_PUSH_CONFIG_LIST,
  CAPTURED_RETURN_IMMEDIATELY,
  CAPTURED_SEND_COMPLETED,
  CAPTURED_SEND_INPUT_REQUIRED,
  CAPTURED_STREAM_TURN_1,
  CAPTURED_STREAM_TURN_2,
  CAPTURED_WEBHOOK_BODY,
} from '../fixtures/wire-captures.js';

describe('schemas accept every wire capture of the official SDK', () => {
  it('parses the served agent card, empty strings and arrays included', () => {
    const card = AgentCardSchema.parse(CAPTURED_CARD);
    expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toEqual(['JSONRPC', 'HTTP+JSON']);
    expect(card.capabilities).toEqual({
      streaming: true,
      pushNotifications: true,
      extensions: [],
      extendedAgentCard: false,
    });
    expect(card.skills[0]?.id).toBe('node-setup');
  });

  it('parses blocking SendMessage results in the {"task":…} wrapper', () => {
    const first = SendMessageResponseSchema.parse(CAPTURED_SEND_INPUT_REQUIRED.result);
    const second = SendMessageResponseSchema.parse(CAPTURED_SEND_COMPLETED.result);
    expect('task' in first && first.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect('task' in first && first.task.artifacts).toBeUndefined();
    expect('task' in second && second.task.artifacts?.[0]?.parts).toHaveLength(3);
  });

  it('parses every streamed event of both turns', () => {
    const kinds = [...CAPTURED_STREAM_TURN_1, ...CAPTURED_STREAM_TURN_2].map((line) => {
      const event: StreamResponse = StreamResponseSchema.parse((JSON.parse(line) as { result: unknown }).result);
      return Object.keys(event)[0];
    });
    expect(kinds).toEqual([
      'task',
      'statusUpdate',
      'statusUpdate',
      'task',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
  });

  it('leaves omitted defaults absent instead of inventing undefined-valued keys', () => {
    const event = StreamResponseSchema.parse((JSON.parse(CAPTURED_STREAM_TURN_2[2]!) as { result: unknown }).result);
    expect(event).toEqual({
      artifactUpdate: {
        taskId: 'T2',
        contextId: 'C2',
        artifact: {
          artifactId: 'setup-script',
          name: 'setup.sh',
          description: 'Node.js setup script',
          parts: [{ text: '#!/bin/sh\n', mediaType: 'text/plain' }],
        },
      },
    });
    expect(Object.keys((event as { artifactUpdate: object }).artifactUpdate)).not.toContain('append');
  });

  it('parses bare tasks from GetTask and CancelTask, and the returnImmediately reply', () => {
    expect(TaskSchema.parse(CAPTURED_GET_TASK).history).toBeUndefined();
    expect(TaskSchema.parse(CAPTURED_CANCELED_TASK).status.state).toBe('TASK_STATE_CANCELED');
    const sent = SendMessageResponseSchema.parse(CAPTURED_RETURN_IMMEDIATELY);
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_SUBMITTED');
  });

  it('parses ListTasks and fills the totals a default-omitting server leaves out', () => {
    expect(ListTasksResponseSchema.parse(CAPTURED_LIST_TASKS).totalSize).toBe(10);
    expect(ListTasksResponseSchema.parse({})).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
  });

  it('parses push configs and the webhook body', () => {
    expect(TaskPushNotificationConfigSchema.parse(CAPTURED_PUSH_CONFIG)).toEqual(CAPTURED_PUSH_CONFIG);
    expect(ListTaskPushNotificationConfigsResponseSchema.parse(CAPTURED_PUSH_CONFIG_LIST).configs).toHaveLength(1);
    expect('artifactUpdate' in StreamResponseSchema.parse(CAPTURED_WEBHOOK_BODY)).toBe(true);
  });

  it('tolerates the UNRECOGNIZED role the SDK stores for unknown roles, and every part kind', () => {
    const message = MessageSchema.parse(CAPTURED_LAX_MESSAGE);
    expect(message.role).toBe('UNRECOGNIZED');
    expect(message.parts.map((p) => Object.keys(p)[0])).toEqual(['url', 'data', 'raw']);
  });
});

describe('ProtoJSON leniency', () => {
  it('accepts snake_case field names and drops unknown fields', () => {
    const task = TaskSchema.parse({
      id: 'T',
      context_id: 'C',
      status: { state: 'TASK_STATE_WORKING' },
      kind: 'task',
      unknownField: { nested: true },
    });
    expect(task).toEqual({ id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } });
  });

  it('accepts enum numbers as ProtoJSON parsers do', () => {
    expect(TaskSchema.parse({ id: 'T', status: { state: 6 } }).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(MessageSchema.parse({ messageId: 'm', role: 1, parts: [{ text: 'x' }] }).role).toBe('ROLE_USER');
  });

  it('reads a missing parts list as empty, as ProtoJSON omits empty lists', () => {
    expect(MessageSchema.parse({ messageId: 'm', role: 'ROLE_AGENT' }).parts).toEqual([]);
  });

  it('keeps snake_case inside free-form metadata and data untouched', () => {
    const message = MessageSchema.parse({
      messageId: 'm',
      role: 'ROLE_USER',
      parts: [{ data: { dev_dependencies: { a_b: 1 } } }],
      metadata: { work_delay_ms: 5 },
    });
    expect(message.metadata).toEqual({ work_delay_ms: 5 });
    expect(message.parts[0]).toEqual({ data: { dev_dependencies: { a_b: 1 } } });
  });

  it('produces plain JSON that survives a JSON round trip unchanged', () => {
    const task = TaskSchema.parse((CAPTURED_SEND_COMPLETED.result as { task: unknown }).task);
    expect(JSON.parse(JSON.stringify(task))).toEqual(task);
    expect(Object.getPrototypeOf(task)).toBe(Object.prototype);
  });
});
