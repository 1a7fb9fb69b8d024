/**
 * A real fault-injection proxy for the tests: Toxiproxy (Shopify, MIT), built once from the Go
 * module proxy (`go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0`: about 70 s with
 * empty Go caches here, 11 MB) and cached in `.cache/go-bin/toxiproxy-v2.12.0/`, like the other Go
 * binaries. A test starts its own server on a free loopback port and puts a {@link FaultyLink}
 * (one Toxiproxy proxy) in front of each part it wants to disturb; toxics are added and removed
 * through Toxiproxy's HTTP API with `toxiproxy-node-client` (typed, no dependencies, kept up to
 * date with the server's toxics).
 *
 * Toxiproxy applies a toxic to the connections already open as well as to new ones, and closes
 * the connections a `timeout` toxic held when that toxic is removed (as a NAT that finally drops
 * the state would): a half-open link never resumes with a gap in its bytes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Toxiproxy, type Proxy, type ToxicAttributeTypes, type ToxicDirection } from 'toxiproxy-node-client';
import { freePort } from '../../platform/free-port.js';
import { buildInto, findGo, goInstall } from '../../platform/go-install.js';
import { cacheDir } from '../../platform/paths.js';

/** The newest version the Go module proxy serves (its `list` stops at v2.5.0; `@v/v2.12.0.info` answers). */
export const TOXIPROXY_VERSION = 'v2.12.0';
const MODULE = 'github.com/Shopify/toxiproxy/v2';

function folder(): string {
  return join(cacheDir, 'go-bin', `toxiproxy-${TOXIPROXY_VERSION}`);
}

/** The toxiproxy server binary, built on first use. @throws Error when Go is missing or the build fails. */
export async function ensureToxiproxy(): Promise<{ path: string; built: boolean }> {
  const dir = folder();
  const path = join(dir, 'bin', 'server');
  if (existsSync(path)) return { path, built: false };
  if (!(await findGo())) {
    throw new Error(
      `The fault tests build Toxiproxy ${TOXIPROXY_VERSION} with Go from the Go module proxy, and no go command runs here: install Go 1.23 or later.`,
    );
  }
  await buildInto(dir, (tmp) =>
    goInstall([`${MODULE}/cmd/server@${TOXIPROXY_VERSION}`], join(tmp, 'bin'), [
      '-trimpath',
      // The release build stamps the version the same way (its Makefile); `go install` leaves "git".
      `-ldflags=-s -w -X ${MODULE}.Version=${TOXIPROXY_VERSION}`,
    ]),
  );
  return { path, built: true };
}

/** A toxic as Toxiproxy takes it: its type, direction and attributes (see Toxiproxy's README). */
export type ToxicSpec =
  | { type: 'latency'; attributes: { latency: number; jitter: number } }
  | { type: 'bandwidth'; attributes: { rate: number } }
  | { type: 'slow_close'; attributes: { delay: number } }
  | { type: 'timeout'; attributes: { timeout: number } }
  | { type: 'reset_peer'; attributes: { timeout: number } }
  | { type: 'slicer'; attributes: { average_size: number; size_variation: number; delay: number } }
  | { type: 'limit_data'; attributes: { bytes: number } };

export interface RunningToxiproxy {
  /** `http://127.0.0.1:<port>` of the API. */
  apiUrl: string;
  version: string;
  /** A proxy listening on a free loopback port, forwarding to `upstream` (`host:port`). */
  link(name: string, upstream: string): Promise<FaultyLink>;
  stop(): Promise<void>;
}

/** One Toxiproxy proxy: a TCP link that a test can slow down, cut, hold half-open or take down. */
export class FaultyLink {
  private flapping: Promise<void> | undefined;
  private stopFlap = false;
  /** The toxics this link added and has not removed. */
  private readonly toxics = new Set<string>();

  constructor(private proxy: Proxy) {}

  get name(): string {
    return this.proxy.name;
  }

  /** `host:port` the link listens on. */
  get listen(): string {
    return this.proxy.listen;
  }

  /** The upstream `host:port`. */
  get upstream(): string {
    return this.proxy.upstream;
  }

  /** Adds a toxic (on open connections too); `downstream` is the answer's direction. */
  async add(toxic: ToxicSpec, stream: ToxicDirection = 'downstream', name = `${toxic.type}-${stream}`): Promise<void> {
    await this.proxy.addToxic<ToxicAttributeTypes>({
      name,
      type: toxic.type,
      stream,
      toxicity: 1,
      attributes: toxic.attributes,
    });
    this.toxics.add(name);
  }

  async remove(name: string): Promise<void> {
    await (await this.proxy.getToxic(name)).remove();
    this.toxics.delete(name);
  }

  /** Removes every toxic and brings the link up (a flap in progress stops first). */
  async heal(): Promise<void> {
    await this.stopFlapping();
    for (const name of [...this.toxics]) await this.remove(name);
    await this.setEnabled(true);
  }

  /** Takes the link down (open connections are closed, new ones refused) or up again. */
  async setEnabled(enabled: boolean): Promise<void> {
    this.proxy = await this.proxy.update({ enabled, listen: this.proxy.listen, upstream: this.proxy.upstream });
  }

  /** Down for `ms`, then up again. */
  async outage(ms: number): Promise<void> {
    await this.setEnabled(false);
    await sleep(ms);
    await this.setEnabled(true);
  }

  /** Down and up every `periodMs` for `forMs` (starting down), ending up. Resolves when the flapping ends. */
  flap(periodMs: number, forMs: number): Promise<void> {
    this.stopFlap = false;
    this.flapping = (async () => {
      const end = Date.now() + forMs;
      let enabled = true;
      while (!this.stopFlap && Date.now() < end) {
        enabled = !enabled;
        await this.setEnabled(enabled);
        await sleep(Math.min(periodMs, Math.max(0, end - Date.now())));
      }
      if (!enabled) await this.setEnabled(true);
    })();
    return this.flapping;
  }

  private async stopFlapping(): Promise<void> {
    this.stopFlap = true;
    await this.flapping;
    this.flapping = undefined;
  }
}

/** Starts a Toxiproxy server on a free loopback port; resolves when its API answers. */
export async function startToxiproxy(): Promise<RunningToxiproxy> {
  const { path } = await ensureToxiproxy();
  const port = await freePort('127.0.0.1');
  const child: ChildProcess = spawn(path, ['-host', '127.0.0.1', '-port', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    // Toxiproxy logs each connection; keep only the tail for a failure message.
    output = (output + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const apiUrl = `http://127.0.0.1:${port}`;
  const api = new Toxiproxy(apiUrl);
  const deadline = Date.now() + 15_000;
  let version: string | undefined;
  while (version === undefined) {
    if (child.exitCode !== null) throw new Error(`toxiproxy exited before its API answered:\n${output}`);
    version = await api.getVersion().then(versionOf, () => undefined);
    if (version === undefined) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`toxiproxy's API did not answer at ${apiUrl} within 15 s:\n${output}`);
      }
      await sleep(50);
    }
  }
  return {
    apiUrl,
    version,
    async link(name, upstream) {
      return new FaultyLink(await api.createProxy({ name, listen: '127.0.0.1:0', upstream, enabled: true }));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A link another process created on the Toxiproxy server at `apiUrl`, by its name. */
export async function openLink(apiUrl: string, name: string): Promise<FaultyLink> {
  return new FaultyLink(await new Toxiproxy(apiUrl).get(name));
}

/** `{"version": "v2.12.0"}` (older servers answer the bare string). */
function versionOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { version?: unknown };
    if (typeof parsed.version === 'string') return parsed.version;
  } catch {
    // not JSON: the bare version
  }
  return body.trim();
}
