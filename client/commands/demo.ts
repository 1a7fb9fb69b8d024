/**
 * `npm run demo`: the main job on the embedded default. Uses the Temporal server that already
 * runs (TEMPORAL_ADDRESS, or 127.0.0.1:7233) or starts the embedded one, starts the sample
 * agents and a worker in this process, runs a release of payment-service with the bundled
 * manifest, asks for the agent's answer and the approval (or takes --answer / --approve),
 * streams the report and prints the UI link. Everything it started stops at the end, the
 * server too unless --keep.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { Option, type Command } from 'commander';
import { SAMPLE_MANIFEST_PATH, startSampleAgents } from '../../agents/index.js';
import { AgentRegistry } from '../../activities/index.js';
import { isServing, startDevServer, type DevServer } from '../../platform/dev-server.js';
import { freePort } from '../../platform/free-port.js';
import { startCodecServer, type RunningCodecServer } from '../../storage/codec-server.js';
import { loadBlobSettings, openBlobStore } from '../../storage/config.js';
import { dataDir } from '../../platform/paths.js';
import { ensureSearchAttributes } from '../../platform/search-attributes-setup.js';
import { ensureTemporalCli } from '../../platform/temporal-cli.js';
import { temporalTarget } from '../../platform/temporal-config.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { createA2AWorker } from '../../worker/run-worker.js';
import { RELEASE_PHASE, RELEASE_SERVICE } from '../../contract/index.js';
import { CliError } from '../cli-error.js';
import { uiLine, withContext, workflowUrl } from '../context.js';
import { follow } from '../follow.js';
import { interactiveHandlers } from '../interactive.js';
import { fitLines, joinTerminal, paintRisk, paintTerminal } from '../markdown-terminal.js';
import { OUTPUT_FORMATS, outputFormat, type OutputFormat } from '../output-format.js';
import { sampleReleaseInput } from '../sample-release.js';
import { readableId } from '../start-options.js';
import { terminalSafeLogFunction } from '../terminal-text.js';
import { Terminal } from '../terminal.js';

interface DemoOptions {
  answer?: string;
  approve?: boolean;
  keep?: boolean;
  inMemory?: boolean;
  port: string;
  uiPort: string;
  format: OutputFormat;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run a release of payment-service end to end on the embedded stack (server, sample agents, worker)')
    .option('--answer <text>', 'answer the agent\'s question with this text instead of asking (e.g. "Node.js 24")')
    .option('--approve', 'approve the release when its report is ready instead of asking')
    .option('--keep', 'leave the Temporal server running at the end (to browse the UI)')
    .option('--in-memory', 'an embedded server keeps nothing (no SQLite file under .data/)')
    .option('--port <port>', 'port of the embedded server when one must be started (0: a free one)', '7233')
    .option('--ui-port <port>', 'its Web UI port', '8233')
    .addOption(
      new Option(
        '--format <format>',
        'how to show the report and the artifacts: text (rendered for the terminal), markdown or json (one event per line)',
      )
        .choices(OUTPUT_FORMATS)
        .default('text'),
    )
    .action(async (opts: DemoOptions) => {
      // The SDK's INFO logs (bundling, worker state) would drown the story the demo tells.
      Runtime.install({ logger: new DefaultLogger('WARN', terminalSafeLogFunction), shutdownSignals: [] }); // Ctrl-C is ours: see onSignal
      const terminal = new Terminal();
      const cleanups: Array<() => Promise<unknown>> = [];
      // Ctrl-C stops following; the release is then cancelled (its remote tasks too) while the
      // worker still runs, and everything the demo started is stopped in order.
      const interrupted = new AbortController();
      const onSignal = () => interrupted.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const { address, uiUrl } = await temporalForDemo(opts, terminal, cleanups);
        if (uiUrl) process.env.A2A_TEMPORAL_UI_URL ??= uiUrl;

        terminal.setStatus('starting the sample agents');
        // Paced so the report visibly streams in (the agents' own defaults are faster).
        const samples = await startSampleAgents({ workDelayMs: 800, chunkDelayMs: 700 });
        cleanups.push(() => samples.close());
        const registry = new AgentRegistry({
          agents: Object.fromEntries(
            Object.entries(samples.agents).map(([name, agent]) => [name, { url: agent.baseUrl }]),
          ),
        });
        terminal.line(
          `Sample agents: ${Object.values(samples.agents)
            .map((a) => a.cardUrl)
            .join(', ')}`,
        );

        terminal.setStatus('starting a worker (bundling the workflows takes a few seconds)');
        const taskQueue = readableId('a2a-temporal-demo');
        const worker = await createA2AWorker({
          config: loadWorkerConfig(process.env, { taskQueue }),
          target: temporalTarget({ address }),
          registry,
        });
        const running = worker.run();
        cleanups.push(async () => {
          worker.shutdown();
          await running;
        });

        await withContext({ address, uiUrl }, async (context) => {
          if (interrupted.signal.aborted) return;
          const workflowId = readableId('release-payment-service-2.0.0');
          const input = sampleReleaseInput();
          const release = await context.client.workflow.start('release', {
            workflowId,
            taskQueue,
            args: [input],
            staticSummary: 'Release payment-service 1.4.0 → 2.0.0 (demo)',
            typedSearchAttributes: [
              { key: RELEASE_SERVICE, value: 'payment-service' },
              { key: RELEASE_PHASE, value: 'analysing' },
            ],
          });
          const link = workflowUrl(context, workflowId);
          terminal.line(`Release ${workflowId} of payment-service 1.4.0 → 2.0.0 (manifest: ${SAMPLE_MANIFEST_PATH})`);
          terminal.line(uiLine(link));
          const format = outputFormat(opts);
          const view = await follow(context, workflowId, {
            terminal,
            format,
            signal: interrupted.signal,
            ...interactiveHandlers(context, workflowId, terminal, {
              answer: opts.answer,
              approve: opts.approve,
              signal: interrupted.signal,
              format,
            }),
          }).catch(async (err: unknown) => {
            if (!interrupted.signal.aborted) throw err;
            terminal.line('\nInterrupted: cancelling the release and its remote tasks.');
            await release.cancel();
            await Promise.race([release.result().catch(() => undefined), sleep(10_000)]);
            return undefined;
          });
          if (!view) return;
          const sorted = view.report?.dependencies ?? [];
          terminal.line('');
          const { style } = terminal;
          const risks = sorted.map((f) =>
            joinTerminal([
              paintTerminal(`${f.name} (`, [], style),
              paintRisk(f.risk, style),
              paintTerminal(')', [], style),
            ]),
          );
          terminal.rendered(
            fitLines(
              joinTerminal([
                paintTerminal('Fix suggestions by risk: ', [], style),
                risks.length ? joinTerminal(risks, ', ') : paintTerminal('none', [], style),
              ]),
              style.width,
            ),
          );
          terminal.line(
            `Outcome: ${view.outcome ?? view.status.toLowerCase()}${view.reason ? ` (${view.reason})` : ''}`,
          );
          terminal.line(uiLine(link));
          if (view.status !== 'COMPLETED' || view.outcome === 'failed') process.exitCode = 1;
        });
      } finally {
        terminal.stopStatus();
        for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      if (interrupted.signal.aborted) process.exitCode = 130;
    });
}

/**
 * The demo's codec server: the blob store of the environment's settings (the worker's), on a free
 * loopback port, behind a token of this run carried in the endpoint's path (the embedded UI sends
 * no header of ours), for the UI on either of `uiPorts`.
 */
async function demoCodecServer(
  uiPorts: number[],
): Promise<{ server: RunningCodecServer; endpoint: string; close(): Promise<void> }> {
  const blobs = loadBlobSettings();
  const store = openBlobStore(blobs.store);
  const token = randomBytes(24).toString('base64url');
  const server = await startCodecServer(
    {
      store,
      token,
      corsOrigins: uiPorts.flatMap((p) => [`http://127.0.0.1:${p}`, `http://localhost:${p}`]),
      maxPayloadBytes: blobs.maxPayloadBytes,
      thresholdBytes: blobs.thresholdBytes,
    },
    { port: 0 },
  );
  return {
    server,
    endpoint: `${server.url}/${token}`,
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}

/** The Temporal server for the demo: the configured or running one, else the embedded one. */
async function temporalForDemo(
  opts: DemoOptions,
  terminal: Terminal,
  cleanups: Array<() => Promise<unknown>>,
): Promise<{ address: string; uiUrl?: string }> {
  const configured = process.env.TEMPORAL_ADDRESS || undefined;
  const port = Number(opts.port);
  const address = configured ?? `127.0.0.1:${port}`;
  let server: DevServer | undefined;
  if (await isServing(address)) {
    terminal.line(`Using the Temporal server at ${address}`);
  } else if (configured) {
    throw new CliError(
      `TEMPORAL_ADDRESS is ${configured}, but no Temporal server answers there. Start it, or unset TEMPORAL_ADDRESS to let the demo start the embedded one.`,
    );
  } else {
    const cli = await ensureTemporalCli((line) => terminal.line(`setup: ${line}`));
    terminal.line(`temporal CLI via ${cli.route}: ${cli.version}`);
    const uiPort = Number(opts.uiPort) || (await freePort('127.0.0.1')); // the codec server needs the UI's origin before it starts
    const fallback = { port: await freePort('127.0.0.1'), uiPort: await freePort('127.0.0.1') };
    // The UI shows payloads kept in the blob store (and files) through a codec server of this run.
    const codec = await demoCodecServer([uiPort, fallback.uiPort]);
    cleanups.push(() => codec.close());
    terminal.setStatus('starting the embedded Temporal server');
    server = await startDevServer({
      port,
      uiPort,
      dbFile: opts.inMemory ? undefined : join(dataDir, 'temporal.sqlite'),
      cliPath: cli.path,
      detached: opts.keep,
      extraArgs: ['--ui-codec-endpoint', codec.endpoint],
    }).catch(async () => {
      // The ports are taken by something else: run on free ones, in memory.
      terminal.line(`Ports ${port}/${opts.uiPort} are busy; starting the embedded server on free ports.`);
      return startDevServer({
        ...fallback,
        cliPath: cli.path,
        detached: opts.keep,
        extraArgs: ['--ui-codec-endpoint', codec.endpoint],
      });
    });
    terminal.line(`Embedded Temporal server at ${server.address}, Web UI ${server.uiUrl}`);
    terminal.line(
      `Codec server for the UI at ${codec.server.url}${opts.keep ? ' (it stops with the demo: run `a2a-temporal codec-server` to keep payloads readable)' : ''}`,
    );
    const started = server;
    if (opts.keep) terminal.line(`It keeps running after the demo (--keep); stop it with: kill ${started.process.pid}`);
    else cleanups.push(() => started.stop());
  }
  const finalAddress = server?.address ?? address;
  const connection = await Connection.connect({ address: finalAddress });
  try {
    const added = await ensureSearchAttributes(connection, 'default');
    if (added.length) terminal.line(`Registered search attributes: ${added.join(', ')}`);
  } finally {
    await connection.close();
  }
  return {
    address: finalAddress,
    // The embedded server's own UI; for a running server, openContext works it out (see uiBaseUrl).
    uiUrl: server?.uiUrl,
  };
}
