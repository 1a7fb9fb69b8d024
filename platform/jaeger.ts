/**
 * Jaeger (v2, all in one: OTLP receiver, in-memory storage, query API) as the trace viewer of a
 * machine that reaches package registries only. Built once from the Go module proxy
 * (`github.com/jaegertracing/jaeger` v1.76.0, `cmd/jaeger`) and cached in
 * `.cache/go-bin/jaeger-<version>/` (git-ignored), like the Temporal server binaries.
 *
 * The Go module ships no UI: Jaeger's React UI is built from a separate repository into
 * `cmd/query/app/ui/actual`, which is empty in the module, so a binary built from it serves a
 * placeholder page. Jaeger serves our own viewer (platform/trace-viewer/index.html, a page over
 * Jaeger's `/api/traces`) from `jaeger_query.ui.assets_path` instead. The Docker image of the
 * compose stack has Jaeger's own UI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { buildInto, findGo, goBuildFromModule } from './go-install.js';
import { cacheDir } from './paths.js';

export const JAEGER_VERSION = 'v1.76.0';
const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
/** Smaller binary; nothing needs its debug data. */
const BUILD_FLAGS = ['-trimpath', '-ldflags=-s -w'];

/** The folder of the viewer page Jaeger serves. */
export const TRACE_VIEWER_DIR = join(dirname(fileURLToPath(import.meta.url)), 'trace-viewer');

function folder(): string {
  return join(cacheDir, 'go-bin', `jaeger-${JAEGER_VERSION}`);
}

export function jaegerCached(): boolean {
  return existsSync(folder());
}

/**
 * The Jaeger binary, built on first use (a few minutes with empty Go caches).
 * @returns its path and whether it had to be built. @throws Error when Go is missing or the build fails.
 */
export async function ensureJaeger(): Promise<{ path: string; built: boolean }> {
  const dir = folder();
  const path = join(dir, 'bin', 'jaeger');
  if (existsSync(dir)) return { path, built: false };
  if (!(await findGo())) {
    throw new Error(
      `The trace viewer (Jaeger ${JAEGER_VERSION}) is built with Go from the Go module proxy, and no go command runs here: install Go 1.24 or later.`,
    );
  }
  await buildInto(dir, (tmp) =>
    goBuildFromModule(`${JAEGER_MODULE}@${JAEGER_VERSION}`, './cmd/jaeger', join(tmp, 'bin', 'jaeger'), BUILD_FLAGS),
  );
  return { path, built: true };
}

export interface JaegerOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** The viewer and query API; 0 picks a free port. @default 0 */
  uiPort?: number;
  /** OTLP/HTTP; 0 picks a free port. @default 0 */
  otlpPort?: number;
}

export interface RunningJaeger {
  /** The viewer, e.g. `http://127.0.0.1:16686`. */
  uiUrl: string;
  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  otlpEndpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Jaeger with in-memory storage, OTLP/HTTP in and our viewer out; resolves once the query API answers. */
export async function startJaeger(binary: string, options: JaegerOptions = {}): Promise<RunningJaeger> {
  const host = options.host ?? '127.0.0.1';
  const [uiPort, otlpPort, grpcPort] = [
    options.uiPort || (await freePort(host)),
    options.otlpPort || (await freePort(host)),
    await freePort(host),
  ];
  const dir = mkdtempSync(join(tmpdir(), 'a2a-jaeger-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, jaegerConfig({ host, uiPort, otlpPort, grpcPort }));
  const child = spawn(binary, ['--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const uiUrl = `http://${host}:${uiPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Jaeger exited at start (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${uiUrl}/api/services`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Jaeger did not answer on ${uiUrl} within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    uiUrl,
    otlpEndpoint: `http://${host}:${otlpPort}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** All in one: OTLP/HTTP receiver → memory store → query API and our viewer; its own telemetry off. */
export function jaegerConfig(p: { host: string; uiPort: number; otlpPort: number; grpcPort: number }): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    ui:
      assets_path: ${JSON.stringify(TRACE_VIEWER_DIR)}
    http:
      endpoint: ${p.host}:${p.uiPort}
    grpc:
      endpoint: ${p.host}:${p.grpcPort}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
receivers:
  otlp:
    protocols:
      http:
        endpoint: ${p.host}:${p.otlpPort}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}
