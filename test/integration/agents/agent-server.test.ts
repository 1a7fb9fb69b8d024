import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { A2A_VERSION_HEADER, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST, startDependencyCompatAgent, startSampleAgents } from '../../../agents/index.js';
import {
  connect,
  drain,
  isStatus,
  readUntil,
  sendForTask,
  sendRequest,
  streamAll,
  userMessage,
} from './support/sdk-client.js';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A webhook receiver on 127.0.0.1 that resolves `until(predicate)` once a matching POST arrived. */
interface Webhook {
  url: string;
  until(matches: (d: Delivery) => boolean): Promise<Delivery>;
  close(): Promise<void>;
}

async function startWebhook(): Promise<Webhook> {
  const deliveries: Delivery[] = [];
  const waiters: { matches: (d: Delivery) => boolean; resolve: (d: Delivery) => void }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const delivery = { headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> };
      deliveries.push(delivery);
      for (const waiter of waiters.filter((w) => w.matches(delivery))) waiter.resolve(delivery);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    until: (matches) =>
      new Promise((resolve) => {
        const seen = deliveries.find(matches);
        if (seen) resolve(seen);
        else waiters.push({ matches, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('a sample agent server', () => {
  it('serves a 1.0 card whose interfaces point at the port it actually bound', async () => {
    const agent = await startDependencyCompatAgent();
    try {
      expect(agent.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(agent.cardUrl).toBe(`${agent.baseUrl}/.well-known/agent-card.json`);
      const card = (await (await fetch(agent.cardUrl, { headers: { [A2A_VERSION_HEADER]: '1.0' } })).json()) as Record<
        string,
        unknown
      >;
      expect(card).toMatchObject({
        name: 'Dependency Compatibility Agent',
        supportedInterfaces: [
          { url: `${agent.baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: `${agent.baseUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
        capabilities: { streaming: true, pushNotifications: true },
        defaultInputModes: ['text/plain', 'application/json'],
        defaultOutputModes: ['text/markdown', 'application/json'],
        skills: [{ id: 'dependency-compatibility-analysis' }],
      });
    } finally {
      await agent.close();
    }
  });

  it('counts requests per route, tasks created and every received messageId in order', async () => {
    const agent = await startDependencyCompatAgent({ workDelayMs: 0, chunkDelayMs: 0 });
    try {
      const rpc = await connect(agent, 'JSONRPC');
      const rest = await connect(agent, 'HTTP+JSON');
      const task = await sendForTask(rpc, userMessage({ messageId: 'm-1', text: 'Node.js 24', data: SAMPLE_MANIFEST }));
      await streamAll(rest, userMessage({ messageId: 'm-2', text: 'Analyse it', data: SAMPLE_MANIFEST }));
      await rest.getTask({ tenant: '', id: task.id });
      // The same messageId twice is what a careless retry looks like; the agent records both.
      await sendForTask(rpc, userMessage({ messageId: 'm-1', text: 'Node.js 24', data: SAMPLE_MANIFEST }));

      expect(agent.stats).toEqual({
        requests: 6,
        byRoute: {
          'GET /.well-known/agent-card.json': 2,
          'POST /a2a/jsonrpc SendMessage': 2,
          'POST /a2a/rest/message:stream': 1,
          'GET /a2a/rest/tasks/:id': 1,
        },
        tasksCreated: 3,
        messageIds: ['m-1', 'm-2', 'm-1'],
      });

      const stats = agent.stats;
      agent.resetStats();
      expect(stats).toBe(agent.stats);
      expect(agent.stats).toEqual({ requests: 0, byRoute: {}, tasksCreated: 0, messageIds: [] });
    } finally {
      await agent.close();
    }
  });

  it('counts a JSON-RPC request the SDK refuses before reading its method', async () => {
    const agent = await startDependencyCompatAgent();
    try {
      const response = await fetch(`${agent.baseUrl}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{broken',
      });
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
      expect(agent.stats.byRoute).toEqual({ 'POST /a2a/jsonrpc': 1 });
    } finally {
      await agent.close();
    }
  });

  it('delivers push notifications to a loopback webhook with the configured credentials', async () => {
    const agent = await startDependencyCompatAgent({ workDelayMs: 0, chunkDelayMs: 0 });
    const webhook = await startWebhook();
    try {
      const client = await connect(agent, 'HTTP+JSON');
      const task = await sendForTask(client, userMessage({ text: 'Node.js 24', data: SAMPLE_MANIFEST }), {
        returnImmediately: true,
        taskPushNotificationConfig: {
          tenant: '',
          id: '',
          taskId: '',
          url: webhook.url,
          token: '',
          authentication: { scheme: 'Bearer', credentials: 'hook-secret' },
        },
      });
      const completed = await webhook.until((d) => {
        const update = d.body.statusUpdate as { taskId?: string; status?: { state?: string } } | undefined;
        return update?.taskId === task.id && update.status?.state === 'TASK_STATE_COMPLETED';
      });
      expect(completed.headers.authorization).toBe('Bearer hook-secret');
      expect(completed.headers['content-type']).toBe('application/a2a+json');
      const chunk = await webhook.until((d) => d.body.artifactUpdate !== undefined);
      expect(chunk.body.artifactUpdate).toMatchObject({
        taskId: task.id,
        artifact: { artifactId: 'compatibility-report' },
      });
    } finally {
      await webhook.close();
      await agent.close();
    }
  });

  it('closes promptly with a stream still open, ending that stream and refusing new connections', async () => {
    const agent = await startDependencyCompatAgent();
    const client = await connect(agent, 'JSONRPC');
    const request = sendRequest(
      userMessage({ text: 'Node.js 24', data: SAMPLE_MANIFEST, metadata: { scenario: 'never-finish' } }),
    );
    const stream = client.sendMessageStream(request)[Symbol.asyncIterator]();
    await readUntil(stream, isStatus(TaskState.TASK_STATE_WORKING));

    await agent.close();
    const outcome = await drain(stream).then(
      () => 'ended',
      () => 'errored',
    );
    expect(['ended', 'errored']).toContain(outcome);
    await expect(fetch(agent.cardUrl)).rejects.toThrow();
    await agent.close(); // idempotent
  });

  it('reports a port that cannot be bound', async () => {
    const first = await startDependencyCompatAgent();
    try {
      const port = Number(new URL(first.baseUrl).port);
      await expect(startDependencyCompatAgent({ port })).rejects.toThrow(
        /Dependency Compatibility Agent could not listen on 127\.0\.0\.1:\d+/,
      );
    } finally {
      await first.close();
    }
  });
});

describe('startSampleAgents', () => {
  it('starts the three agents on their own ports and closes them together', async () => {
    const running = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 0 });
    try {
      const { compat, changelog, license } = running.agents;
      expect(new Set([compat.baseUrl, changelog.baseUrl, license.baseUrl]).size).toBe(3);
      const names = await Promise.all(
        [compat, changelog, license].map(
          async (a) => ((await (await fetch(a.cardUrl)).json()) as { name: string }).name,
        ),
      );
      expect(names).toEqual(['Dependency Compatibility Agent', 'Changelog Writer', 'License Checker']);
      expect([compat.name, changelog.name, license.name]).toEqual(names);
    } finally {
      await running.close();
    }
    await expect(fetch(running.agents.compat.cardUrl)).rejects.toThrow();
  });

  it('closes the agents that started when another one cannot bind its port', async () => {
    const blocker = await startDependencyCompatAgent();
    try {
      const port = Number(new URL(blocker.baseUrl).port);
      await expect(startSampleAgents({ ports: { license: port } })).rejects.toThrow(/License Checker could not listen/);
    } finally {
      await blocker.close();
    }
  });
});
