/** The peer × binding × mode × scenario matrix: what each cell did, as markdown for the terminal and test/artifacts/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CellResult {
  peer: string;
  binding: string;
  mode: string;
  scenario: string;
  ok: boolean;
  seconds: number;
  /** The first line of the failure, when it failed. */
  error?: string;
}

export interface PeerRow {
  name: string;
  /** e.g. `a2a-sdk 1.3.0 on Python 3.11.7, A2A 1.0, JSONRPC + HTTP+JSON + GRPC` */
  description: string;
  /** The bindings it serves that we speak. */
  bindings: string[];
  modes: string[];
  /** Set when the peer did not run: one sentence. */
  skipped?: string;
}

export class Matrix {
  private readonly cells: CellResult[] = [];
  private readonly peers: PeerRow[] = [];

  constructor(private readonly scenarios: readonly string[]) {}

  addPeer(row: PeerRow): void {
    this.peers.push(row);
  }

  record(cell: CellResult): void {
    this.cells.push(cell);
  }

  markdown(): string {
    const header = `| peer | binding | mode | ${this.scenarios.join(' | ')} |`;
    const rule = `| --- | --- | --- | ${this.scenarios.map(() => '---').join(' | ')} |`;
    const rows = this.peers.flatMap((peer) =>
      peer.skipped
        ? [`| ${peer.name} | — | — | ${this.scenarios.map(() => 'not run').join(' | ')} |`]
        : peer.bindings.flatMap((binding) =>
            peer.modes.map(
              (mode) =>
                `| ${peer.name} | ${binding} | ${mode} | ${this.scenarios.map((s) => this.cell(peer.name, binding, mode, s)).join(' | ')} |`,
            ),
          ),
    );
    const failed = this.cells.filter((c) => !c.ok);
    const passed = this.cells.length - failed.length;
    return [
      '# Delegation matrix: peer × binding × mode × scenario',
      '',
      ...this.peers.map((p) => `- **${p.name}**: ${p.skipped ? `not run: ${p.skipped}` : p.description}`),
      '',
      header,
      rule,
      ...rows,
      '',
      `Cells: ${passed} ✓ and ${failed.length} ✗ (seconds per cell; the cells of one peer and binding ran concurrently).`,
      ...(failed.length > 0 ? ['', '## Failed cells', ''] : []),
      ...failed.map((c) => `- ${c.peer} × ${c.binding} × ${c.mode} × ${c.scenario}: ${c.error ?? 'failed'}`),
      '',
    ].join('\n');
  }

  write(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, this.markdown());
  }

  private cell(peer: string, binding: string, mode: string, scenario: string): string {
    const found = this.cells.find(
      (c) => c.peer === peer && c.binding === binding && c.mode === mode && c.scenario === scenario,
    );
    if (!found) return '?';
    return `${found.ok ? '✓' : '✗'} ${found.seconds.toFixed(1)}`;
  }
}
