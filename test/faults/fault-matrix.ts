/**
 * The fault matrix: what each cell (link × fault × mode) did. Every test file of `npm run
 * test:faults` writes its cells to `test/artifacts/fault-matrix/<file>.json`; the run's teardown
 * (report.ts) renders them all as one table, prints it and writes `test/artifacts/fault-matrix.md`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../platform/paths.js';

export const MATRIX_DIR = join(packageRoot, 'test', 'artifacts', 'fault-matrix');
export const MATRIX_FILE = join(packageRoot, 'test', 'artifacts', 'fault-matrix.md');

export interface CellRecord {
  /** e.g. `worker → agent (HTTP+JSON)` */
  link: string;
  /** e.g. `latency +2 s` */
  fault: string;
  /** `stream`, `poll`, `push`, or `—` where the mode does not matter */
  mode: string;
  /** What the cell expects: `completed`, or the failure type it must end in. */
  expected: string;
  /** What happened: `completed`, a failure type, or what the CLI printed. */
  outcome: string;
  /** From the start of the delegation (or the command) to its end. */
  seconds: number;
  /** Tasks the agent created. */
  remoteTasks?: number;
  /** Sends the agent received, and how many distinct message ids they carried. */
  sends?: { received: number; distinct: number };
  /** Artifact parts compared with the undisturbed run: lost and repeated ones, and whether the text is byte-exact. */
  chunks?: { lost: number; repeated: number; exact: boolean };
  /** Seconds from the fault's start until `status` showed it (half-open, outage). */
  noticedAfter?: number;
  /** What `status` said while the fault lasted (first line of the problem it showed). */
  statusSaid?: string;
  /** What else the cell saw (shown where `status` said nothing): push signals, canaries, receiver counters. */
  note?: string;
  ok: boolean;
  /** Why the cell failed, when it did. */
  problems?: string[];
}

/** Writes one file's cells (called once per test file, after its cells ran). */
export function writeCells(file: string, cells: readonly CellRecord[]): void {
  mkdirSync(MATRIX_DIR, { recursive: true });
  writeFileSync(join(MATRIX_DIR, `${file}.json`), JSON.stringify(cells, null, 2));
}

/** Forgets the cells of an earlier run (called when a run starts). */
export function clearCells(): void {
  rmSync(MATRIX_DIR, { recursive: true, force: true });
}

export function readCells(): CellRecord[] {
  let files: string[];
  try {
    files = readdirSync(MATRIX_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.sort().flatMap((f) => JSON.parse(readFileSync(join(MATRIX_DIR, f), 'utf8')) as CellRecord[]);
}

/** The matrix as markdown: one row per cell, grouped by link, the failures listed after the table. */
export function matrixMarkdown(cells: readonly CellRecord[], notes: readonly string[] = []): string {
  const rows = cells.map((c) =>
    [
      c.link,
      c.fault,
      c.mode,
      `${c.ok ? '✓' : '✗'} ${c.outcome}${c.outcome === c.expected ? '' : ` (expected ${c.expected})`}`,
      c.seconds.toFixed(1),
      c.remoteTasks ?? '—',
      c.sends
        ? `${c.sends.received}${c.sends.distinct === c.sends.received ? '' : ` (${c.sends.distinct} distinct)`}`
        : '—',
      c.chunks ? chunkText(c.chunks) : '—',
      c.noticedAfter === undefined ? '—' : `${c.noticedAfter.toFixed(1)} s`,
      (c.statusSaid ?? c.note)?.replaceAll('|', '\\|') ?? '—',
    ].join(' | '),
  );
  const failed = cells.filter((c) => !c.ok);
  return [
    '# Fault matrix: link × fault × mode',
    '',
    ...notes.map((n) => `- ${n}`),
    ...(notes.length > 0 ? [''] : []),
    '| link | fault | mode | outcome | s | remote tasks | sends | chunks | noticed | status said (or note) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r} |`),
    '',
    `Cells: ${cells.length - failed.length} ✓ and ${failed.length} ✗.`,
    ...(failed.length > 0 ? ['', '## Failed cells', ''] : []),
    ...failed.map((c) => `- ${c.link} × ${c.fault} × ${c.mode}: ${(c.problems ?? ['failed']).join('; ')}`),
    '',
  ].join('\n');
}

function chunkText(chunks: NonNullable<CellRecord['chunks']>): string {
  if (chunks.lost === 0 && chunks.repeated === 0 && chunks.exact) return 'exact';
  const parts = [];
  if (chunks.lost) parts.push(`${chunks.lost} lost`);
  if (chunks.repeated) parts.push(`${chunks.repeated} repeated`);
  if (!chunks.exact) parts.push('text differs');
  return parts.join(', ');
}
