/**
 * `a2a-temporal artifacts`, end to end: a real `delegate` run against an agent on the wire that
 * returns files (text in chunks, raw bytes, data, `url` parts on its own origin and on another),
 * then the CLI lists and saves them; and a `url` part the outbound policy forbids, refused with
 * A2A_OUTBOUND_REFUSED before anything is written.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegateResult } from '../../../contract/index.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { startHostileAgent, type HostileAgent, type WireTask } from '../../hostile/hostile-agent.js';
import { runCliProcess } from '../../helpers/cli-process.js';
import { registryOf, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporalTest = useTemporal();
const root = mkdtempSync(join(tmpdir(), 'a2a-artifacts-'));
const TOKEN_ENV = 'FILES_AGENT_TOKEN';
const TOKEN = 'files-agent-secret-token';
process.env[TOKEN_ENV] = TOKEN;

const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xff));
const pdf = Buffer.from('%PDF-1.7 pretend report');
const sbom = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [] });
/** Requests the other origin (a file server, not the agent) received: never with the agent's credential. */
const fileServerHeaders: IncomingHttpHeaders[] = [];
let fileServer: ReturnType<typeof createServer>;
let fileServerUrl: string;
let agent: HostileAgent;
let agentsFile: string;
let filesId: string;
let forbiddenId: string;

/** The agent's artifacts, by the message text that asks for them. */
function artifactsFor(text: string, baseUrl: string): unknown[] {
  if (text === 'forbidden')
    return [{ artifactId: 'a1', name: 'evil', parts: [{ url: 'http://192.0.2.10/evil.bin', filename: 'evil.bin' }] }];
  return [
    {
      artifactId: 'changelog',
      name: 'Change log',
      parts: [{ text: '# Changes\n', mediaType: 'text/markdown', filename: 'CHANGELOG.md' }, { text: '- faster\n' }],
    },
    { artifactId: 'bin', parts: [{ raw: binary.toString('base64'), filename: '../../escape.bin' }] },
    { artifactId: 'data', name: 'summary', parts: [{ data: { risk: 'low' }, mediaType: 'application/json' }] },
    { artifactId: 'sbom', parts: [{ url: `${fileServerUrl}/sbom.cdx.json`, filename: 'sbom.cdx.json' }] },
    {
      artifactId: 'report',
      parts: [{ url: `${baseUrl}/files/report.pdf`, filename: 'report.pdf', mediaType: 'application/pdf' }],
    },
  ];
}

beforeAll(async () => {
  fileServer = createServer((req, res) => {
    fileServerHeaders.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(sbom);
  });
  await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
  fileServerUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
  agent = await startHostileAgent({
    attack: {
      agent: {
        intercept(call, control) {
          if (call.method === 'GET' && call.url === '/files/report.pdf') {
            control.observe('report-auth', call.headers.authorization);
            return { status: 200, headers: { 'content-type': 'application/pdf' }, body: pdf };
          }
          if (call.operation !== 'SendMessage') return undefined;
          const message = call.params.message as { parts?: Array<{ text?: string }> };
          const task: WireTask = control.createTask(call.params.message as Record<string, unknown>);
          task.artifacts = artifactsFor(message.parts?.[0]?.text ?? '', control.baseUrl) as WireTask['artifacts'];
          control.apply(task.id, [{ state: 'TASK_STATE_COMPLETED', text: 'Files attached.' }]);
          return control.ok(call, { task });
        },
      },
    },
  });
  agentsFile = join(root, 'agents.json');
  writeFileSync(
    agentsFile,
    JSON.stringify({ agents: { files: { url: agent.baseUrl, auth: { type: 'bearer', tokenEnv: TOKEN_ENV } } } }),
  );
  const taskQueue = uniqueTaskQueue('artifacts');
  const client = await temporalTest.client();
  const worker = await temporalTest.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ files: agent }, { files: { tokenEnv: TOKEN_ENV } }) })],
  });
  await worker.runUntil(async () => {
    const files = await startDelegate(
      client,
      taskQueue,
      { agent: 'files', text: 'files', mode: 'poll' },
      `${taskQueue}-files`,
    );
    const forbidden = await startDelegate(
      client,
      taskQueue,
      { agent: 'files', text: 'forbidden', mode: 'poll' },
      `${taskQueue}-forbidden`,
    );
    expect(((await files.result()) as DelegateResult).artifacts).toHaveLength(5);
    await forbidden.result();
    filesId = files.workflowId;
    forbiddenId = forbidden.workflowId;
  });
});

afterAll(async () => {
  await agent?.close();
  await new Promise((resolve) => fileServer?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const cliEnv = () => ({
  A2A_AGENTS_FILE: agentsFile,
  [TOKEN_ENV]: TOKEN,
  A2A_BLOB_STORE: 'fs',
  A2A_BLOB_DIR: join(root, 'blobs'),
});

describe('a2a-temporal artifacts', () => {
  it('lists the files of a finished delegation: name, type, size, agent', async () => {
    const run = await runCliProcess(['artifacts', filesId], cliEnv());
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TYPE\s+SIZE\s+AGENT\s+DELEGATION$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/).slice(0, 4))).toEqual([
      ['CHANGELOG.md', 'text/markdown', '19 B', 'files'],
      ['../../escape.bin', 'application/octet-stream', '2.9 KiB', 'files'],
      ['summary', 'application/json', '19 B', 'files'],
      ['sbom.cdx.json', 'application/octet-stream', 'url', 'files'],
      ['report.pdf', 'application/pdf', 'url', 'files'],
    ]);
  });

  it('saves them under DIR only, byte for byte, with the agent’s credential sent to its own origin alone', async () => {
    const dir = join(root, 'out');
    const run = await runCliProcess(['artifacts', filesId, '--save', dir], cliEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Saved 5 files to /);
    expect(readdirSync(dir).sort()).toEqual([
      'CHANGELOG.md',
      'escape.bin',
      'report.pdf',
      'sbom.cdx.json',
      'summary.json',
    ]);
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toBe('# Changes\n- faster\n');
    expect(readFileSync(join(dir, 'escape.bin')).equals(binary)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).toEqual({ risk: 'low' });
    expect(readFileSync(join(dir, 'sbom.cdx.json'), 'utf8')).toBe(sbom);
    expect(readFileSync(join(dir, 'report.pdf')).equals(pdf)).toBe(true);
    expect(run.stdout).toContain(createHash('sha256').update(pdf).digest('hex').slice(0, 12));
    expect(existsSync(join(root, 'escape.bin'))).toBe(false);
    expect(agent.observations.get('report-auth')).toBe(`Bearer ${TOKEN}`);
    expect(fileServerHeaders).toHaveLength(1);
    expect(fileServerHeaders[0]!.authorization).toBeUndefined();
  });

  it('refuses a url part the outbound policy forbids with A2A_OUTBOUND_REFUSED, writing nothing', async () => {
    const dir = join(root, 'refused');
    const run = await runCliProcess(['artifacts', forbiddenId, '--save', dir], cliEnv());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: .*was not sent because it is plain http to a host that is not loopback.*\(A2A_OUTBOUND_REFUSED\); nothing was written\.$/m,
    );
    expect(run.stderr).not.toContain(TOKEN);
    expect(existsSync(dir)).toBe(false);
  });
});
