/**
 * The spill folders a killed worker leaves behind (a2a/spilled-bytes.ts): removed by the next
 * worker on the host, never a folder of a process that still runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeAbandonedSpills } from '../../../a2a/spilled-bytes.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function folder(root: string, name: string): string {
  const path = join(root, name);
  mkdirSync(path);
  writeFileSync(join(path, 'bytes'), 'spilled');
  return path;
}

describe('spill folders left by a killed worker', () => {
  it("removes the folders of processes that no longer run and keeps this process's and a running one's", () => {
    const root = mkdtempSync(join(tmpdir(), 'a2a-spills-'));
    roots.push(root);
    const exited = spawnSync(process.execPath, ['-e', '']);
    expect(exited.status).toBe(0);
    const dead = folder(root, `a2a-event-${exited.pid}-AbC123`);
    const ours = folder(root, `a2a-event-${process.pid}-dEf456`);
    const running = folder(root, `a2a-event-${process.ppid}-gHi789`);
    const other = folder(root, 'a2a-event-not-a-pid');

    expect(removeAbandonedSpills(root)).toEqual([`a2a-event-${exited.pid}-AbC123`]);
    expect(existsSync(dead)).toBe(false);
    for (const kept of [ours, running, other]) expect(existsSync(kept)).toBe(true);
  });

  it('does nothing when the folder cannot be read', () => {
    expect(removeAbandonedSpills(join(tmpdir(), 'a2a-no-such-folder-for-spills'))).toEqual([]);
  });
});
