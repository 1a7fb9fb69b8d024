import { describe, expect, it } from 'vitest';
import type { SendMessageRequest } from '../../../../a2a/index.js';
import {
  kindSendParams,
  kindTaskPushConfig,
  protoSendRequest,
  protoTaskPushConfig,
} from '../../../../a2a/v0-3/from-v1.js';
import { legacyEventToV1 } from '../../../../a2a/v0-3/to-v1.js';

const request: SendMessageRequest = {
  message: {
    messageId: 'm-1',
    role: 'ROLE_USER',
    taskId: 'T',
    contextId: 'C',
    referenceTaskIds: ['T0'],
    metadata: { scenario: 'fail' },
    parts: [
      { text: 'Node.js 24' },
      { data: { name: 'payment-service', dependencies: { express: '^4.18.2' } } },
      { data: [1, 2] },
      { url: 'https://x.test/a.pdf', filename: 'a.pdf', mediaType: 'application/pdf' },
      { raw: 'aGk=', mediaType: 'text/plain' },
    ],
  },
  configuration: { returnImmediately: true, historyLength: 3, acceptedOutputModes: ['text/plain'] },
  metadata: { trace: 'x' },
};

describe('1.0 → A2A 0.3 JSON-RPC params (kind tags)', () => {
  it('builds message/send params with blocking = !returnImmediately', () => {
    expect(kindSendParams(request)).toEqual({
      message: {
        kind: 'message',
        messageId: 'm-1',
        role: 'user',
        taskId: 'T',
        contextId: 'C',
        referenceTaskIds: ['T0'],
        metadata: { scenario: 'fail' },
        parts: [
          { kind: 'text', text: 'Node.js 24' },
          { kind: 'data', data: { name: 'payment-service', dependencies: { express: '^4.18.2' } } },
          { kind: 'data', data: { value: [1, 2] }, metadata: { data_part_compat: true } },
          { kind: 'file', file: { uri: 'https://x.test/a.pdf', mimeType: 'application/pdf', name: 'a.pdf' } },
          { kind: 'file', file: { bytes: 'aGk=', mimeType: 'text/plain' } },
        ],
      },
      configuration: { blocking: false, historyLength: 3, acceptedOutputModes: ['text/plain'] },
      metadata: { trace: 'x' },
    });
  });

  it('always sends blocking, true when returnImmediately is absent', () => {
    expect(kindSendParams({ message: { messageId: 'm', role: 'ROLE_USER', parts: [] } }).configuration).toEqual({
      blocking: true,
    });
  });

  it('round-trips a message through the 0.3 shape', () => {
    const sent = kindSendParams(request).message;
    const { response } = legacyEventToV1(sent, { what: 'Message' });
    expect((response as { message: { parts: unknown[] } }).message.parts).toEqual([
      { text: 'Node.js 24' },
      { data: { name: 'payment-service', dependencies: { express: '^4.18.2' } }, mediaType: 'application/json' },
      { data: [1, 2], mediaType: 'application/json' },
      { url: 'https://x.test/a.pdf', filename: 'a.pdf', mediaType: 'application/pdf' },
      { raw: 'aGk=', mediaType: 'text/plain' },
    ]);
  });

  it('builds tasks/pushNotificationConfig/set params', () => {
    expect(
      kindTaskPushConfig({
        taskId: 'T',
        id: 'c',
        url: 'http://h/',
        authentication: { scheme: 'Bearer', credentials: 'x' },
      }),
    ).toEqual({
      taskId: 'T',
      pushNotificationConfig: { id: 'c', url: 'http://h/', authentication: { schemes: ['Bearer'], credentials: 'x' } },
    });
  });
});

describe('1.0 → A2A 0.3 HTTP+JSON bodies (ProtoJSON of the 0.3 proto)', () => {
  it('builds the SendMessageRequest with content parts and ROLE_USER', () => {
    expect(protoSendRequest(request)).toEqual({
      message: {
        messageId: 'm-1',
        role: 'ROLE_USER',
        taskId: 'T',
        contextId: 'C',
        metadata: { scenario: 'fail' },
        content: [
          { text: 'Node.js 24' },
          { data: { data: { name: 'payment-service', dependencies: { express: '^4.18.2' } } } },
          { data: { data: { value: [1, 2] } } },
          { file: { fileWithUri: 'https://x.test/a.pdf', mimeType: 'application/pdf' } },
          { file: { fileWithBytes: 'aGk=', mimeType: 'text/plain' } },
        ],
      },
      configuration: { blocking: false, historyLength: 3, acceptedOutputModes: ['text/plain'] },
      metadata: { trace: 'x' },
    });
  });

  it('names the task in the push config body', () => {
    expect(protoTaskPushConfig({ taskId: 'T', url: 'http://h/' })).toEqual({
      name: 'tasks/T/pushNotificationConfigs/',
      pushNotificationConfig: { url: 'http://h/' },
    });
  });
});
