/**
 * `direct`: the official `@a2a-js/sdk` client talking to the agent, no Temporal, no durability:
 * a streaming send that ends in `input-required`, then a streaming answer on the same task that
 * carries the report chunks until COMPLETED. The lower bound of every figure.
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Part, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { SAMPLE_MANIFEST } from '../../agents/index.js';
import { ANSWER_TEXT, NO_DELAY, REPORT_MARKER, REQUEST_TEXT, type RemoteDelays } from '../scenario.js';

export type DirectDelegation = (delays?: RemoteDelays) => Promise<void>;

/** Fetches the card once (as a long-lived SDK client would) and returns one-delegation runs. */
export async function directDelegation(baseUrl: string): Promise<DirectDelegation> {
  const client = await new ClientFactory().createFromUrl(baseUrl);
  return async (delays = NO_DELAY) => {
    const metadata = { workDelayMs: delays.workDelayMs, chunkDelayMs: delays.chunkDelayMs };
    const asked = await follow(client, message([text(REQUEST_TEXT), data(SAMPLE_MANIFEST)], { metadata }));
    if (asked.state !== TaskState.TASK_STATE_INPUT_REQUIRED || !asked.taskId) {
      throw new Error(`direct: expected input-required, got state ${asked.state}`);
    }
    const done = await follow(
      client,
      message([text(ANSWER_TEXT)], { taskId: asked.taskId, contextId: asked.contextId }),
    );
    if (done.state !== TaskState.TASK_STATE_COMPLETED || !done.report.includes(REPORT_MARKER)) {
      throw new Error(`direct: expected a completed report, got state ${done.state} after ${done.chunks} chunks`);
    }
  };
}

interface Followed {
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  chunks: number;
  report: string;
}

/** One streaming send, read to its end (the server closes it at input-required or a terminal state). */
async function follow(client: Client, outgoing: Message): Promise<Followed> {
  const seen: Followed = { chunks: 0, report: '' };
  const events: AsyncIterable<StreamResponse> = client.sendMessageStream({
    tenant: '',
    message: outgoing,
    configuration: undefined,
    metadata: undefined,
  });
  for await (const { payload } of events) {
    if (payload?.$case === 'task') {
      seen.taskId = payload.value.id;
      seen.contextId = payload.value.contextId;
      seen.state = payload.value.status?.state;
    } else if (payload?.$case === 'statusUpdate') {
      seen.state = payload.value.status?.state;
    } else if (payload?.$case === 'artifactUpdate') {
      seen.chunks += 1;
      for (const part of payload.value.artifact?.parts ?? [])
        if (part.content?.$case === 'text') seen.report += part.content.value;
    }
  }
  return seen;
}

function message(
  parts: Part[],
  extra: { taskId?: string; contextId?: string; metadata?: Record<string, unknown> },
): Message {
  return {
    messageId: randomUUID(),
    contextId: extra.contextId ?? '',
    taskId: extra.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: extra.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function text(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined };
}

function data(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: undefined };
}
