import { describe, expect, it } from 'vitest';
import { SecretScrubber, secretsOf } from '../../../a2a/auth.js';
import { bearerAuth, createA2AClient } from '../../../a2a/index.js';
import { ORIGIN, mockAgent } from './helpers/mock-agent.js';
import { InvalidResponseError } from '../../../a2a/errors.js';
import { TaskSchema } from '../../../a2a/schemas/task.js';
import { parseWire, type ParseContext } from '../../../a2a/validation.js';

/** A token with characters that every encoding changes. */
const TOKEN = 's3cr3t-T0ken/+=&"%~é';
const secrets = secretsOf({ headers: { authorization: `Bearer ${TOKEN}` } });
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Every way an agent can echo the token back (the forms of issue 20.4). */
const ECHOES: Record<string, string> = {
  raw: TOKEN,
  percent: encodeURIComponent(TOKEN),
  form: new URLSearchParams({ t: TOKEN }).toString().slice(2),
  json: JSON.stringify(TOKEN).slice(1, -1),
  'base64 of the header': b64(`Bearer ${TOKEN}`),
  'base64url of the header': b64url(`Bearer ${TOKEN}`),
  'base64 of id:secret': b64(`client-7:${TOKEN}`),
  'base64 of the URL-encoded pair': b64(`client-7:${encodeURIComponent(TOKEN)}`),
  'base64 inside a larger JSON echo': b64(JSON.stringify({ headers: { authorization: `Bearer ${TOKEN}` } })),
};

const getTask: ParseContext = {
  operation: 'GetTask',
  agentUrl: 'http://agent.test/a2a',
  what: 'Task',
  secrets,
  credentials: secrets,
};

describe('SecretScrubber', () => {
  const scrubber = new SecretScrubber(secrets);

  it.each(Object.entries(ECHOES))('finds and removes the token echoed %s', (_form, echo) => {
    const text = `the agent says: ${echo} (end)`;
    expect(scrubber.contains(text)).toBe(true);
    const scrubbed = scrubber.scrub(text);
    expect(scrubbed).toContain('[redacted]');
    // Nothing decodable is left: neither the text nor any base64 in it yields the token.
    for (const word of scrubbed.split(/[\s:()]+/)) {
      expect(word).not.toContain(TOKEN);
      expect(Buffer.from(word, 'base64').toString('utf8')).not.toContain(TOKEN.slice(0, 12));
    }
  });

  it('leaves text without the token alone, base64 included', () => {
    const text = `report ${b64('a long and ordinary file content, nothing secret in it')} done`;
    expect(scrubber.contains(text)).toBe(false);
    expect(scrubber.scrub(text)).toBe(text);
  });
});

describe('a response that echoes a credential', () => {
  const task = (fields: Record<string, unknown>) => ({
    id: 'task-1',
    contextId: 'ctx-1',
    status: { state: 'TASK_STATE_WORKING' },
    ...fields,
  });

  it.each(Object.entries(ECHOES))('is refused when an id holds the token (%s)', (_form, echo) => {
    for (const value of [
      task({ id: `task-${echo}` }),
      task({ contextId: echo }),
      task({ artifacts: [{ artifactId: echo, parts: [{ text: 'x' }] }] }),
      task({
        status: {
          state: 'TASK_STATE_WORKING',
          message: { messageId: echo, role: 'ROLE_AGENT', parts: [{ text: 'x' }] },
        },
      }),
    ]) {
      const error = (() => {
        try {
          parseWire(TaskSchema, value, getTask);
        } catch (err) {
          return err as Error;
        }
        throw new Error('expected a refusal');
      })();
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toMatch(/holds the credential we sent it/);
      expect(error.message).not.toContain(TOKEN);
      expect(error.message).not.toContain(echo);
    }
  });

  it('has the token redacted from every text, name and metadata value or key', () => {
    const echo = ECHOES['base64 of the header']!;
    const parsed = parseWire(
      TaskSchema,
      task({
        status: {
          state: 'TASK_STATE_FAILED',
          message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: `denied for ${TOKEN}` }] },
        },
        artifacts: [
          {
            artifactId: 'a1',
            name: `report ${ECHOES.percent}`,
            parts: [{ text: `x ${echo} y` }, { data: { [TOKEN]: TOKEN } }],
          },
        ],
        metadata: { note: ECHOES.json },
      }),
      getTask,
    );
    const text = JSON.stringify(parsed);
    for (const form of Object.values(ECHOES)) expect(text).not.toContain(form);
    expect(parsed.status.message?.parts[0]).toEqual({ text: 'denied for [redacted]' });
    expect(parsed.artifacts?.[0]?.name).toBe('report [redacted]');
  });

  it('passes untouched when the client sent no credential', () => {
    const value = task({ id: TOKEN });
    expect(parseWire(TaskSchema, value, { ...getTask, credentials: [] }).id).toBe(TOKEN);
  });
});

describe('a client', () => {
  it("takes its credentials out of responses, but not the words of its interface URL's query string", async () => {
    const mock = mockAgent();
    try {
      const url = `${ORIGIN}/a2a/jsonrpc?workspace=engineering`;
      const endpoint = { url, binding: 'JSONRPC' as const, protocolVersion: '1.0' as const };
      const client = createA2AClient({ endpoint }, { dispatcher: mock.agent, auth: bearerAuth(TOKEN) });
      const message = { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: `engineering report for ${TOKEN}` }] };
      const result = { id: 'T', contextId: 'engineering-c1', status: { state: 'TASK_STATE_WORKING', message } };
      mock.pool
        .intercept({ path: '/a2a/jsonrpc?workspace=engineering', method: 'POST' })
        .reply(200, (opts) => ({ jsonrpc: '2.0', id: (JSON.parse(String(opts.body)) as { id: unknown }).id, result }));
      const task = await client.getTask({ id: 'T' });
      expect(task.contextId).toBe('engineering-c1');
      expect(task.status.message?.parts[0]).toEqual({ text: 'engineering report for [redacted]' });
    } finally {
      await mock.close();
    }
  });
});
