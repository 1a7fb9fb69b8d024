import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../../../a2a/errors.js';
import { MessageSchema } from '../../../../a2a/schemas/message.js';
import { StreamResponseSchema } from '../../../../a2a/schemas/events.js';
import { TaskSchema } from '../../../../a2a/schemas/task.js';
import {
  legacyEventToV1,
  legacyPushConfigListToV1,
  legacyPushConfigToV1,
  legacySendResultToV1,
  legacyTaskToV1,
} from '../../../../a2a/v0-3/to-v1.js';
import type { ParseContext } from '../../../../a2a/validation.js';
import {
  CAPTURED_V03_ARTIFACT_UPDATE,
  CAPTURED_V03_STATUS_UPDATE_FINAL,
  CAPTURED_V03_TASK,
} from '../fixtures/wire-captures.js';

const ctx: ParseContext = { operation: 'GetTask', agentUrl: 'http://legacy.test/a2a', what: 'Task' };

describe('A2A 0.3 (JSON-RPC dialect: kind tags, lower-case states) → 1.0', () => {
  it('converts the captured task, its status message and history', () => {
    const task = legacyTaskToV1(CAPTURED_V03_TASK, ctx);
    expect(task).toEqual({
      id: 'T1',
      contextId: 'C1',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: {
          messageId: 'a-1',
          role: 'ROLE_AGENT',
          parts: [{ text: 'Which Node.js version?' }],
          contextId: 'C1',
          taskId: 'T1',
        },
        timestamp: '2026-11-30T11:49:41.807Z',
      },
      history: [
        { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'set up node' }], contextId: 'C1', taskId: 'T1' },
      ],
    });
    expect(TaskSchema.parse(task)).toEqual(task);
  });

  it.each([
    ['submitted', 'TASK_STATE_SUBMITTED'],
    ['working', 'TASK_STATE_WORKING'],
    ['input-required', 'TASK_STATE_INPUT_REQUIRED'],
    ['auth-required', 'TASK_STATE_AUTH_REQUIRED'],
    ['completed', 'TASK_STATE_COMPLETED'],
    ['canceled', 'TASK_STATE_CANCELED'],
    ['failed', 'TASK_STATE_FAILED'],
    ['rejected', 'TASK_STATE_REJECTED'],
    ['unknown', 'TASK_STATE_UNSPECIFIED'],
  ])('maps state %s to %s', (legacy, v1) => {
    expect(legacyTaskToV1({ kind: 'task', id: 'T', contextId: 'C', status: { state: legacy } }, ctx).status.state).toBe(
      v1,
    );
  });

  it('converts status updates and reports the final flag', () => {
    expect(legacyEventToV1(CAPTURED_V03_STATUS_UPDATE_FINAL, ctx)).toEqual({
      response: {
        statusUpdate: {
          taskId: 'T1',
          contextId: 'C1',
          status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-11-30T11:49:43.001Z' },
        },
      },
      final: true,
    });
  });

  it('converts artifact updates, dropping explicit false flags', () => {
    const { response, final } = legacyEventToV1(CAPTURED_V03_ARTIFACT_UPDATE, ctx);
    expect(final).toBe(false);
    expect(response).toEqual({
      artifactUpdate: {
        taskId: 'T1',
        contextId: 'C1',
        artifact: { artifactId: 'setup-script', name: 'setup.sh', parts: [{ text: '#!/bin/sh\n' }] },
      },
    });
    expect(StreamResponseSchema.parse(response)).toEqual(response);
  });

  it('converts file and data parts, unwrapping the SDK data_part_compat wrapper', () => {
    const { response } = legacyEventToV1(
      {
        kind: 'message',
        messageId: 'm',
        role: 'agent',
        parts: [
          { kind: 'file', file: { uri: 'https://x.test/a.pdf', mimeType: 'application/pdf', name: 'a.pdf' } },
          { kind: 'file', file: { bytes: 'aGk=', mimeType: 'text/plain' } },
          { kind: 'data', data: { k: 1 }, metadata: { source: 'x' } },
          { kind: 'data', data: { value: [1, 2] }, metadata: { data_part_compat: true } },
        ],
      },
      ctx,
    );
    expect(response).toEqual({
      message: {
        messageId: 'm',
        role: 'ROLE_AGENT',
        parts: [
          { url: 'https://x.test/a.pdf', filename: 'a.pdf', mediaType: 'application/pdf' },
          { raw: 'aGk=', mediaType: 'text/plain' },
          { data: { k: 1 }, mediaType: 'application/json', metadata: { source: 'x' } },
          { data: [1, 2], mediaType: 'application/json' },
        ],
      },
    });
    expect(MessageSchema.parse((response as { message: unknown }).message)).toBeTruthy();
  });

  it('reads message/send results as task or message', () => {
    expect(legacySendResultToV1(CAPTURED_V03_TASK, ctx)).toHaveProperty('task');
    expect(
      legacySendResultToV1(
        { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] },
        ctx,
      ),
    ).toEqual({
      message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
    expect(() => legacySendResultToV1(CAPTURED_V03_STATUS_UPDATE_FINAL, ctx)).toThrow(InvalidResponseError);
  });

  it('names the field of an invalid 0.3 body', () => {
    expect(() => legacyTaskToV1({ kind: 'task', id: 'T', status: { state: 'done' } }, ctx)).toThrow(
      'GetTask from http://legacy.test/a2a returned an invalid Task: status.state: expected an A2A 0.3 task state such as "working" or "input-required", got "done"; the agent does not follow the A2A 0.3 wire format',
    );
    expect(() =>
      legacyEventToV1({ kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text' }] }, ctx),
    ).toThrow(/parts\[0\]: a 0\.3 part needs exactly one of text, file or data/);
    expect(() =>
      legacyEventToV1(
        { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'file', file: { name: 'a.txt' } }] },
        ctx,
      ),
    ).toThrow(/parts\[0\]\.file: a 0\.3 file needs exactly one of uri or bytes, got \{"name":"a\.txt"\}/);
  });
});

describe('A2A 0.3 (HTTP+JSON dialect: ProtoJSON of the 0.3 proto) → 1.0', () => {
  it('converts a wrapped task with TASK_STATE_* states, ROLE_* roles and content parts', () => {
    const body = {
      task: {
        id: 'T',
        contextId: 'C',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId: 'a', contextId: 'C', taskId: 'T', role: 'ROLE_AGENT', content: [{ text: 'Which?' }] },
          timestamp: '2026-11-30T11:49:41.807Z',
        },
        history: [
          {
            messageId: 'm',
            role: 'ROLE_USER',
            content: [{ text: 'go' }, { data: { data: { name: 'payment-service' } } }],
          },
        ],
      },
    };
    expect(legacySendResultToV1(body, ctx)).toEqual({
      task: {
        id: 'T',
        contextId: 'C',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: { messageId: 'a', contextId: 'C', taskId: 'T', role: 'ROLE_AGENT', parts: [{ text: 'Which?' }] },
          timestamp: '2026-11-30T11:49:41.807Z',
        },
        history: [
          {
            messageId: 'm',
            role: 'ROLE_USER',
            parts: [{ text: 'go' }, { data: { name: 'payment-service' }, mediaType: 'application/json' }],
          },
        ],
      },
    });
  });

  it('reads TASK_STATE_CANCELLED (two Ls), `update` as the status message, and the msg wrapper', () => {
    expect(
      legacyTaskToV1(
        {
          id: 'T',
          status: {
            state: 'TASK_STATE_CANCELLED',
            update: { messageId: 'a', role: 'ROLE_AGENT', content: [{ text: 'bye' }] },
          },
        },
        ctx,
      ),
    ).toEqual({
      id: 'T',
      status: {
        state: 'TASK_STATE_CANCELED',
        message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'bye' }] },
      },
    });
    expect(
      legacySendResultToV1({ msg: { messageId: 'a', role: 'ROLE_AGENT', content: [{ text: 'hi' }] } }, ctx),
    ).toEqual({
      message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
  });

  it('converts wrapped stream events and file parts', () => {
    expect(
      legacyEventToV1(
        { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' }, final: true } },
        ctx,
      ),
    ).toMatchObject({
      final: true,
      response: { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } },
    });
    expect(
      legacyEventToV1(
        {
          artifactUpdate: {
            taskId: 'T',
            artifact: { artifactId: 'a', parts: [{ file: { fileWithUri: 'https://x.test/f', mimeType: 'text/csv' } }] },
            append: true,
            lastChunk: true,
          },
        },
        ctx,
      ),
    ).toEqual({
      final: false,
      response: {
        artifactUpdate: {
          taskId: 'T',
          artifact: { artifactId: 'a', parts: [{ url: 'https://x.test/f', mediaType: 'text/csv' }] },
          append: true,
          lastChunk: true,
        },
      },
    });
  });

  it('converts push configs of both dialects', () => {
    expect(
      legacyPushConfigToV1(
        {
          taskId: 'T',
          pushNotificationConfig: {
            id: 'c',
            url: 'http://h/',
            token: 't',
            authentication: { schemes: ['Bearer'], credentials: 'x' },
          },
        },
        ctx,
      ),
    ).toEqual({
      taskId: 'T',
      id: 'c',
      url: 'http://h/',
      token: 't',
      authentication: { scheme: 'Bearer', credentials: 'x' },
    });
    expect(
      legacyPushConfigToV1(
        { name: 'tasks/T/pushNotificationConfigs/c', pushNotificationConfig: { url: 'http://h/' } },
        ctx,
      ),
    ).toEqual({
      taskId: 'T',
      id: 'c',
      url: 'http://h/',
    });
    expect(legacyPushConfigListToV1([{ taskId: 'T', pushNotificationConfig: { url: 'http://h/' } }], ctx)).toEqual({
      configs: [{ taskId: 'T', url: 'http://h/' }],
    });
    expect(legacyPushConfigListToV1({ configs: [] }, ctx)).toEqual({ configs: [] });
  });
});
