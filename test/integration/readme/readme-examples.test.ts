/**
 * Every command in the ```sh blocks of README.md, CONTRIBUTING.md, docs/*.md and bench/README.md
 * runs here, as written, against the run's dev server and the sample agents, so an example can
 * never be wrong again. The commands are read from those files (see readme-commands.ts); EXAMPLES says how each one runs, and a command it does not
 * know fails the first test. Placeholders (`<id>`, `<taskId>`, …) are filled from earlier steps;
 * commands that would bind fixed ports are steered to free ones through the environment and the
 * agents file they read, never by changing their text; questions and approvals that would be
 * asked on a terminal are answered with the documentation's own `answer`, `temporal workflow signal`,
 * `approve` and `reject` commands.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs as parseBenchArgs } from '../../../bench/bench-settings.js';
import type { StatusView } from '../../../client/status-view.js';
import type { DelegateResult } from '../../../contract/index.js';
import { freePort } from '../../../platform/free-port.js';
import { packageRoot } from '../../../platform/paths.js';
import { documentationFiles, readDoc } from '../../helpers/documentation.js';
import { waitForQuestions } from '../../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { fill, outputPattern, readmeCommands, where, type ReadmeCommand } from './readme-commands.js';
import { commandShims, runShell, startShell, type ShellEnv, type ShellProcess } from './shell.js';

interface Example {
  /** Matches the command as the documentation writes it (trailing note left out, whitespace collapsed). */
  match: RegExp;
  /** For a command written twice: the one in the block that also holds a command matching this. */
  blockWith?: RegExp;
  /** How the test runs it (for readers of this file), or why it does not, with what it checks instead. */
  runs?: string;
  notRun?: string;
  check?: () => void;
}

const scripts = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: object }).scripts;

/** How each documented command runs. */
const EXAMPLES = {
  npmInstall: {
    match: /^npm install$/,
    notRun: 'the test runs inside the installed checkout (`.ci/run` starts with `npm ci`)',
  },
  demo: {
    match: /^npm run demo$/,
    runs: 'through npm on the shared server (TEMPORAL_ADDRESS), agents on port 0; no terminal, so it prints how to answer and decide, and the README `temporal workflow signal` and `reject` do',
  },
  traces: {
    match: /^npx --no-install a2a-temporal traces$/,
    notRun:
      'builds Jaeger from the Go module proxy on first use (minutes) and serves until Ctrl-C; test/browser/release-trace.test.ts (npm run test:ui) runs the same viewer with a release exported to it; the script is checked to exist',
    check: () => expect(scripts).toHaveProperty('traces'),
  },
  npmTest: {
    match: /^npm test$/,
    notRun: 'this test is part of it; the script is checked to exist',
    check: () => expect(scripts).toHaveProperty('test'),
  },
  server: {
    match: /^npx --no-install a2a-temporal server$/,
    runs: 'on free ports through TEMPORAL_ADDRESS and A2A_TEMPORAL_UI_URL, its SQLite file in A2A_TEMPORAL_DATA_DIR; ready line, Web UI, Ctrl-C',
  },
  agents: {
    match: /^npx --no-install a2a-temporal agents$/,
    runs: 'on the free ports of the agents file in A2A_AGENTS_FILE; ready line, then serves the story',
  },
  worker: {
    match: /^npx --no-install a2a-temporal worker$/,
    blockWith: /^npx --no-install a2a-temporal agents$/,
    runs: 'on a task queue of its own (A2A_TASK_QUEUE) with the same agents file; runs the releases and delegations below',
  },
  releaseStart: {
    match: /^npx --no-install a2a-temporal release start --service payment-service .* \[--follow\]$/,
    runs: 'with its optional parts, following without a terminal; answered and approved by the README commands; its output as shown',
  },
  answer: {
    match: /^npx --no-install a2a-temporal answer <id> /,
    runs: '<id>: the release started above, once it asks',
  },
  signal: {
    match: /^temporal workflow signal --workflow-id <id> --name answer /,
    runs: "<id>: the demo's release, once it asks (the run's temporal CLI, TEMPORAL_ADDRESS)",
  },
  approve: {
    match: /^npx --no-install a2a-temporal approve <releaseId> /,
    runs: '<releaseId>: the release started above, once its report is ready',
  },
  saveArtifacts: {
    match: /^npx --no-install a2a-temporal artifacts <releaseId> --save \.\/out$/,
    runs: '<releaseId>: the release approved above, in a scratch folder; CHANGELOG.md and sbom.cdx.json are saved, the SBOM is CycloneDX',
  },
  reject: {
    match: /^npx --no-install a2a-temporal reject <releaseId> /,
    runs: "<releaseId>: the demo's release, once its report is ready",
  },
  delegate: {
    match: /^npx --no-install a2a-temporal delegate --agent compat --data \.\/package\.json --follow /,
    runs: 'on the worker above; follows it to the end without a terminal',
  },
  followUp: {
    match: /^npx --no-install a2a-temporal delegate --agent <agentUrl> --context <contextId> --ref <taskId> /,
    runs: "<agentUrl>: the compat agent's URL the agents command printed; <contextId>, <taskId>: from `status <id> --json` of the delegation above",
  },
  webhookSecret: {
    match: /^export A2A_WEBHOOK_SECRET=/,
    runs: 'in bash (openssl); the value goes to the two commands below',
  },
  webhookUrl: { match: /^export A2A_WEBHOOK_URL=/, runs: 'in bash; the value goes to the two commands below' },
  webhook: {
    match: /^npx --no-install a2a-temporal webhook$/,
    runs: 'on a free port through A2A_WEBHOOK_PORT; ready line, refuses a delivery without a credential, Ctrl-C',
  },
  pushWorker: {
    match: /^npx --no-install a2a-temporal worker$/,
    blockWith: /^npx --no-install a2a-temporal webhook$/,
    runs: 'with the exported secret and URL, on a task queue of its own; ready line says push is on; Ctrl-C',
  },
  setup: {
    match: /^npx --no-install a2a-temporal setup /,
    runs: 'with its optional parts; profile "prod" of TEMPORAL_CONFIG_FILE points at the dev server; its output as shown',
  },
  cloudApiKey: {
    match: /^export TEMPORAL_API_KEY=/,
    notRun:
      'it needs a Temporal Cloud API key; the two commands below run with profile "cloud" pointing at the dev server, without a key',
  },
  cloudWorker: {
    match: /^npx --no-install a2a-temporal worker --profile cloud$/,
    runs: 'profile "cloud" of TEMPORAL_CONFIG_FILE (the dev server, no TEMPORAL_ADDRESS), a task queue of its own',
  },
  cloudRelease: {
    match: /^npx --no-install a2a-temporal release start --profile cloud /,
    runs: "the same profile; the cloud worker takes it up to the agent's question, then it is cancelled",
  },
  benchQuick: {
    match: /^npm run bench -- --quick$/,
    notRun: 'it takes minutes (`npm run bench` is its own command); its options are checked',
    check: () => expect(() => parseBenchArgs(['--quick'], 'out.json')).not.toThrow(),
  },
  docsApi: {
    match: /^npm run docs:api$/,
    notRun:
      'TypeDoc over every entry point takes a minute and `.ci/run` runs it (warnings are errors); the script is checked to exist',
    check: () => expect(scripts).toHaveProperty(['docs:api']),
  },
  bench: {
    match: /^npm run bench$/,
    notRun: 'it takes minutes (`npm run bench` is its own command); the script is checked to exist',
    check: () => expect(scripts).toHaveProperty('bench'),
  },
} satisfies Record<string, Example>;

const files = documentationFiles();
const commands = files.flatMap((file) => readmeCommands(readDoc(file), file));
const examples: Example[] = Object.values(EXAMPLES);

function examplesFor(command: ReadmeCommand): Example[] {
  return examples.filter(
    (e) =>
      e.match.test(command.command) &&
      (!e.blockWith || commands.some((c) => c.block === command.block && e.blockWith!.test(c.command))),
  );
}

const ran = new Set<ReadmeCommand>();

/** The one documented command of `example`. */
function take(example: Example): ReadmeCommand {
  const found = commands.filter((c) => examplesFor(c).includes(example));
  if (found.length !== 1) {
    throw new Error(
      `${example.match} matches ${found.length} commands of ${files.join(', ')}, not one: ${found.map(where).join('; ')}`,
    );
  }
  return found[0]!;
}

const temporal = useTemporal();
const server = temporal.server;
const bin = commandShims(server.cliPath);
const scratch = mkdtempSync(join(tmpdir(), 'a2a-readme-'));
const profilesFile = join(scratch, 'temporal.toml');
writeFileSync(
  profilesFile,
  `[profile.prod]\naddress = "${server.address}"\n\n[profile.cloud]\naddress = "${server.address}"\nnamespace = "${server.namespace}"\n`,
);
/** Every command's environment: the run's dev server, no push, nobody's own Temporal profile. */
const base: ShellEnv = {
  TEMPORAL_ADDRESS: server.address,
  TEMPORAL_NAMESPACE: server.namespace,
  A2A_TEMPORAL_UI_URL: server.uiUrl,
  TEMPORAL_CONFIG_FILE: profilesFile,
  TEMPORAL_PROFILE: undefined,
  TEMPORAL_API_KEY: undefined,
  A2A_WEBHOOK_URL: undefined,
  A2A_WEBHOOK_SECRET: undefined,
  A2A_WORKFLOW_BUNDLE: server.workflowBundlePath,
  NO_COLOR: '1',
};
/** The profile commands: their address comes from the profile, not from the environment. */
const byProfile: ShellEnv = { TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined };

const running: ShellProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  for (const dir of [bin, scratch]) rmSync(dir, { recursive: true, force: true });
});

/** Starts a documented command (placeholders filled) that runs until stopped or until it ends. */
function start(example: Example, env: ShellEnv, values: Record<string, string> = {}): ShellProcess {
  const command = take(example);
  const started = startShell(fill(command, values), env, bin);
  running.push(started);
  ran.add(command);
  return started;
}

/** Runs a documented command (placeholders filled) to its end; it must succeed and print what its file shows. */
async function run(example: Example, env: ShellEnv, values: Record<string, string> = {}, asShown = true) {
  const command = take(example);
  const result = await runShell(fill(command, values), env, bin);
  ran.add(command);
  expect(result.code, `${where(command)}: ${command.command}\n${result.output}`).toBe(0);
  if (asShown) expectShownOutput(command, result.stdout);
  return result;
}

/** The `# …` lines the documentation shows below a command appear in what it printed. */
function expectShownOutput(command: ReadmeCommand, stdout: string): void {
  for (const shown of command.output) {
    expect(stdout, `${where(command)} shows "${shown}" as the output of ${command.command}`).toMatch(
      outputPattern(shown),
    );
  }
}

/** What an `export NAME=value` line of the documentation sets, evaluated by bash. */
async function exported(example: Example): Promise<ShellEnv> {
  const command = take(example);
  const name = /^export (\w+)=/.exec(command.command)![1]!;
  const result = await runShell(`${fill(command)}\nprintf '%s' "$${name}"`, base, bin);
  ran.add(command);
  expect(result.code, result.output).toBe(0);
  return { [name]: result.stdout };
}

async function stopped(command: ShellProcess, what: string): Promise<void> {
  expect(await command.stop(), `${what} stops cleanly on Ctrl-C:\n${command.output()}`).toBe(0);
}

describe('the examples of the README and the docs', () => {
  it('never tell anyone to run a bare `npx a2a-temporal`: npx would fetch that name from the registry', () => {
    const bare = files.flatMap((file) =>
      readDoc(file)
        .split('\n')
        .flatMap((line, i) => (/\bnpx\s+a2a-temporal\b/.test(line) ? [`${file}:${i + 1}: ${line}`] : [])),
    );
    expect(bare, 'write `npx --no-install a2a-temporal` (or node_modules/.bin/a2a-temporal)').toEqual([]);
    expect(readDoc('README.md')).toContain('npx --no-install a2a-temporal');
  });

  it('know how to run every command in the sh blocks of every documentation file', () => {
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) {
      const known = examplesFor(command);
      expect(
        known.length,
        `${where(command)}: \`${command.command}\` is not in EXAMPLES of test/integration/readme/readme-examples.test.ts: add an entry saying how it runs and run it in a story there (placeholders from earlier steps, ports through the environment), or a notRun entry with the reason.`,
      ).toBe(1);
    }
    for (const example of examples) {
      expect(
        commands.filter((c) => examplesFor(c).includes(example)),
        `EXAMPLES entry ${example.match} matches no command of ${files.join(', ')}: remove it`,
      ).not.toHaveLength(0);
      example.check?.();
    }
  });

  it('run against the dev server and the sample agents, with placeholders filled from earlier steps', async () => {
    await Promise.all([serverStory(), threeTerminalsStory(), demoStory(), pushStory(), setupStory()]);
    const notRun = commands.filter((c) => examplesFor(c).some((e) => e.notRun));
    const missed = commands.filter((c) => !ran.has(c) && !notRun.includes(c));
    expect(
      missed.map((c) => `${where(c)}: ${c.command}`),
      'documented commands that no story ran',
    ).toEqual([]);
  }, 150_000);
});

/** `npx --no-install a2a-temporal server`, on free ports chosen through the variables the other commands read. */
async function serverStory(): Promise<void> {
  const [port, uiPort] = [await freePort(), await freePort()];
  const dataDir = join(scratch, 'data');
  const proc = start(EXAMPLES.server, {
    ...base,
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    A2A_TEMPORAL_UI_URL: `http://127.0.0.1:${uiPort}`,
    A2A_TEMPORAL_DATA_DIR: dataDir,
  });
  await proc.waitFor(/^Press Ctrl-C to stop\.$/m);
  expect(proc.stdout()).toContain(`Temporal server ready at 127.0.0.1:${port} (namespace default)`);
  expect(proc.stdout()).toContain(`Web UI: http://127.0.0.1:${uiPort}`);
  expect(proc.stdout()).toContain(`Data: ${join(dataDir, 'temporal.sqlite')}`);
  expect((await fetch(`http://127.0.0.1:${uiPort}`)).status).toBe(200);
  await stopped(proc, 'the server');
}

/** The three terminals, then a release, a delegation and its follow-up, and the cloud profile, on them. */
async function threeTerminalsStory(): Promise<void> {
  const ports = { compat: await freePort(), changelog: await freePort(), license: await freePort() };
  const agentsFile = join(scratch, 'agents.json');
  writeFileSync(
    agentsFile,
    JSON.stringify({
      agents: Object.fromEntries(
        Object.entries(ports).map(([name, port]) => [name, { url: `http://127.0.0.1:${port}` }]),
      ),
    }),
  );
  const env = { ...base, A2A_AGENTS_FILE: agentsFile, A2A_TASK_QUEUE: uniqueTaskQueue('readme') };
  const agents = start(EXAMPLES.agents, env);
  const worker = start(EXAMPLES.worker, env);
  // The worker prints its task queue and its agents file in two writes, which may arrive apart.
  await Promise.all([agents.waitFor(/^Press Ctrl-C to stop\.$/m), worker.waitFor(/^Agents: /m)]);
  for (const port of Object.values(ports)) {
    expect(agents.stdout()).toContain(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
  }
  expect(worker.stdout()).toContain(`Worker on task queue "${env.A2A_TASK_QUEUE}" at ${server.address}`);
  expect(worker.stdout()).toContain(`Agents: ${agentsFile}`);

  await Promise.all([
    releaseStory(env),
    delegationStory(env, `http://127.0.0.1:${ports.compat}`),
    cloudStory({ ...env, ...byProfile, A2A_TASK_QUEUE: uniqueTaskQueue('readme-cloud') }),
  ]);
  await Promise.all([stopped(worker, 'the worker'), stopped(agents, 'the agents')]);
}

/** `release start … --follow`, answered with `answer` and approved with `approve` when it says so. */
async function releaseStory(env: ShellEnv): Promise<void> {
  const release = start(EXAMPLES.releaseStart, env);
  const [, id] = await release.waitFor(/^Started release (\S+)$/m);
  await release.waitFor(/^UI: /m);
  expectShownOutput(take(EXAMPLES.releaseStart), release.stdout());
  await release.waitFor(/\(answer it with: a2a-temporal answer /);
  const answered = await run(EXAMPLES.answer, env, { id: id! });
  expect(answered.stdout).toMatch(/^Answered question q1 \("[^\n]*"\): sent to compat \(task \S+\)/m);
  await release.waitFor(/\(decide with: a2a-temporal approve /);
  const approved = await run(EXAMPLES.approve, env, { releaseId: id! });
  expect(approved.stdout).toContain(`Release ${id} approved by alice: all checks passed.`);
  expect(await release.exited, release.output()).toBe(0);
  expect(release.stdout()).toMatch(/^■ release completed: approved$/m);
  const save = take(EXAMPLES.saveArtifacts);
  // Inside the checkout (its ignored .data/), where the npx shim finds tsx, as a user's shell finds the CLI.
  mkdirSync(join(packageRoot, '.data'), { recursive: true });
  const folder = mkdtempSync(join(packageRoot, '.data', 'readme-save-'));
  try {
    const saved = await runShell(`cd '${folder}' && ${fill(save, { releaseId: id! })}`, env, bin);
    ran.add(save);
    expect(saved.code, saved.output).toBe(0);
    const names = readdirSync(join(folder, 'out'));
    // The streamed text artifact "Changelog" is saved too (Changelog.md): the file takes a unique name beside it.
    const changelog = names.find((name) => /^CHANGELOG(-\d+)?\.md$/.test(name));
    expect(names).toContain('sbom.cdx.json');
    expect(readFileSync(join(folder, 'out', changelog!), 'utf8')).toMatch(/^# payment-service 2\.0\.0/);
    const sbom: unknown = JSON.parse(readFileSync(join(folder, 'out', 'sbom.cdx.json'), 'utf8'));
    expect(sbom).toMatchObject({ bomFormat: 'CycloneDX' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `delegate --follow`, then the follow-up in its context, referring to its task, by the agent's URL. */
async function delegationStory(env: ShellEnv, agentUrl: string): Promise<void> {
  const first = await run(EXAMPLES.delegate, env);
  const [, id] = /^Started delegation (\S+)$/m.exec(first.stdout)!;
  expect(first.stdout).toMatch(/^■ delegation completed$/m);
  const status = await runShell(`npx --no-install a2a-temporal status ${id} --json`, env, bin);
  expect(status.code, status.output).toBe(0);
  const [delegation] = (JSON.parse(status.stdout) as StatusView).delegations;
  const { taskId, contextId } = delegation!;

  const followUp = await run(EXAMPLES.followUp, env, { agentUrl, contextId: contextId!, taskId: taskId! });
  const [, followUpId] = /^Started delegation (\S+)$/m.exec(followUp.stdout)!;
  const client = await temporal.client();
  const result: DelegateResult = await client.workflow.getHandle(followUpId!).result();
  expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', contextId });
  expect(result.taskId).not.toBe(taskId);
  expect(result.artifacts.length).toBeGreaterThan(0);
}

/** `worker --profile cloud` and `release start --profile cloud`, with a profile that names the dev server. */
async function cloudStory(env: ShellEnv): Promise<void> {
  const worker = start(EXAMPLES.cloudWorker, env);
  await worker.waitFor(/^Worker on task queue/m);
  expect(worker.stdout()).toContain(`Worker on task queue "${env.A2A_TASK_QUEUE}" at ${server.address}`);
  const started = await run(EXAMPLES.cloudRelease, env);
  const [, id] = /^Started release (\S+)$/m.exec(started.stdout)!;
  const handle = (await temporal.client()).workflow.getHandle(id!);
  await waitForQuestions(handle);
  await handle.cancel();
  await stopped(worker, 'the cloud worker');
}

/** `npm run demo` without a terminal: answered by `temporal workflow signal`, rejected by `reject`. */
async function demoStory(): Promise<void> {
  const demo = start(EXAMPLES.demo, base);
  const [, id] = await demo.waitFor(/^Release (\S+) of payment-service/m);
  await demo.waitFor(/\(answer it with: a2a-temporal answer /);
  await run(EXAMPLES.signal, base, { id: id! });
  await demo.waitFor(/\(decide with: a2a-temporal approve /);
  const rejected = await run(EXAMPLES.reject, base, { releaseId: id! });
  expect(rejected.stdout).toMatch(new RegExp(`^Release ${id} rejected by \\S+: sharp needs a rebuild first\\.$`, 'm'));
  expect(await demo.exited, demo.output()).toBe(0);
  expect(demo.stdout()).toMatch(/^Using the Temporal server at /m);
  expect(demo.stdout()).toMatch(/^Outcome: rejected \(sharp needs a rebuild first\)$/m);
}

/** The push block: the exported secret and URL, the receiver on a free port, and a worker with push on. */
async function pushStory(): Promise<void> {
  const port = await freePort();
  const env: ShellEnv = {
    ...base,
    ...(await exported(EXAMPLES.webhookSecret)),
    ...(await exported(EXAMPLES.webhookUrl)),
    A2A_WEBHOOK_PORT: String(port),
    A2A_TASK_QUEUE: uniqueTaskQueue('readme-push'),
  };
  expect(env.A2A_WEBHOOK_SECRET).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  const receiver = start(EXAMPLES.webhook, env);
  const worker = start(EXAMPLES.pushWorker, env);
  const [, url] = await receiver.waitFor(/^Webhook receiver at (http:\S+?)\/a2a\/push\//m);
  expect(url).toBe(`http://127.0.0.1:${port}`);
  const unsigned = await fetch(`${url}/a2a/push/some-workflow/some-task/some-config`, { method: 'POST', body: '{}' });
  expect(unsigned.status).toBe(401);
  await worker.waitFor(/^Push: /m);
  expect(worker.stdout()).toContain('Push: agents deliver to https://hooks.example.com');
  await Promise.all([stopped(receiver, 'the receiver'), stopped(worker, 'the push worker')]);
}

/** `setup --profile prod --namespace payments --retention "7 days"`. */
async function setupStory(): Promise<void> {
  // On a server that outlives the run (A2A_TEST_TEMPORAL_ADDRESS) a second run finds the namespace: "run again, it changes nothing".
  const existed = await (await temporal.client()).workflowService.describeNamespace({ namespace: 'payments' }).then(
    () => true,
    () => false,
  );
  const result = await run(EXAMPLES.setup, { ...base, ...byProfile }, {}, !existed);
  expect(result.stdout).toContain(
    existed ? `Namespace payments: exists on ${server.address}` : `created on ${server.address}`,
  );
}
