/**
 * Starts the peer agents the delegation tests run against, each on 127.0.0.1 port 0: `js` is our
 * own sample agent (the official `@a2a-js/sdk`; JSON-RPC, HTTP+JSON and gRPC), `python` the
 * upgrade advisor on the official Python `a2a-sdk` (A2A 1.0, the same three), `go` the one on
 * `a2a-go` (A2A 0.3). What a peer offers (protocol
 * version, bindings, streaming, push) is read from its agent card, through our own client.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fetchAgentCard, type SupportedBinding } from '../../a2a/index.js';
import { supportedBinding, supportedVersion } from '../../a2a/agent-card.js';
import { grpcInterfaceUrl } from '../../a2a/grpc/target.js';
import { startDependencyCompatAgent } from '../../agents/index.js';
import { ensurePeerToolchain, type PeerToolchainName } from '../../platform/peer-toolchains.js';
import { packageRoot } from '../../platform/paths.js';

export type PeerName = 'js' | PeerToolchainName;

export interface PeerOptions {
  /** Simulated work before the report streams. @default 0 */
  workDelayMs?: number;
  /** Pause between report chunks. @default 10 */
  chunkDelayMs?: number;
}

export interface RunningPeer {
  name: PeerName;
  /** The agent card's name. */
  title: string;
  /** The SDK it is built on, e.g. `a2a-sdk 1.3.0 on Python 3.11.7`. */
  sdk: string;
  baseUrl: string;
  /** The A2A version of the card's interfaces, e.g. `1.0` or `0.3`. */
  protocolVersion: string;
  /** The card's bindings, e.g. `['JSONRPC', 'HTTP+JSON', 'GRPC']`. */
  bindings: string[];
  /**
   * The bindings of the card we speak, each with its interface's origin (a gRPC interface is on a
   * port of its own: an agents-file entry for it allows that origin).
   */
  spoken: Array<{ binding: SupportedBinding; origin: string }>;
  capabilities: { streaming: boolean; pushNotifications: boolean };
  /** What the peer wrote to stderr so far (the last 64 KB), for failure reports. */
  stderr(): string;
  /** Stops the peer (and its process); idempotent. */
  close(): Promise<void>;
}

const STDERR_KEPT = 64 * 1024;

export async function startPeer(name: PeerName, options: PeerOptions = {}): Promise<RunningPeer> {
  const workDelayMs = options.workDelayMs ?? 0;
  const chunkDelayMs = options.chunkDelayMs ?? 10;
  if (name === 'js') {
    const agent = await startDependencyCompatAgent({
      port: 0,
      workDelayMs,
      chunkDelayMs,
      bindings: ['JSONRPC', 'HTTP+JSON', 'GRPC'],
    });
    return describePeer(
      name,
      jsSdk(),
      agent.baseUrl,
      () => '',
      () => agent.close(),
    );
  }
  const toolchain = await ensurePeerToolchain(name);
  if (!toolchain.ready) throw new Error(toolchain.reason);
  const { command, args, cwd } = toolchain.launch;
  const flags =
    name === 'go'
      ? ['-work-delay-ms', String(workDelayMs), '-chunk-delay-ms', String(chunkDelayMs)]
      : ['--work-delay-ms', String(workDelayMs), '--chunk-delay-ms', String(chunkDelayMs)];
  // stdin stays open: the peer exits when it closes, so it never outlives this process.
  const child = spawn(command, [...args, ...flags], {
    cwd,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, // no __pycache__ beside the sources
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    const baseUrl = await firstLine(child, exited, 30_000);
    return await describePeer(name, toolchain.detail, baseUrl, () => stderr, close);
  } catch (err) {
    await close();
    throw new Error(`The ${name} peer did not start: ${(err as Error).message}\n${stderr.slice(-2000)}`, {
      cause: err,
    });
  }
}

async function firstLine(child: ReturnType<typeof spawn>, exited: Promise<void>, timeoutMs: number): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      new Promise<string>((resolve) => lines.once('line', (line) => resolve(line.trim()))),
      exited.then(() => Promise.reject(new Error(`it exited (code ${child.exitCode}) before printing its URL`))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no URL on stdout within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    lines.close();
  }
}

async function describePeer(
  name: PeerName,
  sdk: string,
  baseUrl: string,
  stderr: () => string,
  close: () => Promise<void>,
): Promise<RunningPeer> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(baseUrl)) throw new Error(`unexpected first line "${baseUrl}"`);
  const { card } = await fetchAgentCard(baseUrl);
  const interfaces = card.supportedInterfaces;
  return {
    name,
    title: card.name,
    sdk,
    baseUrl,
    protocolVersion: [...new Set(interfaces.map((i) => i.protocolVersion))].join(', '),
    bindings: [...new Set(interfaces.map((i) => i.protocolBinding))],
    spoken: interfaces.flatMap((i) => {
      const binding = supportedBinding(i.protocolBinding);
      const version = supportedVersion(i.protocolVersion);
      if (!binding || !version || (binding === 'GRPC' && version !== '1.0')) return [];
      const url = binding === 'GRPC' ? grpcInterfaceUrl(i.url, baseUrl) : i.url;
      return [{ binding, origin: new URL(url).origin }];
    }),
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
    },
    stderr,
    close,
  };
}

function jsSdk(): string {
  const manifest = join(packageRoot, 'node_modules', '@a2a-js', 'sdk', 'package.json');
  return `@a2a-js/sdk ${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version} on Node.js ${process.versions.node}`;
}
