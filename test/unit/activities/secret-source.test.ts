import { execFileSync } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CredentialMissingError } from '../../../activities/agent-registry.js';
import { readSecret } from '../../../activities/secret-source.js';

// The real file system, watched: how often a file is opened, and a stat that never answers (a hung mount).
const hung = new Set<string>();
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return {
    ...actual,
    open: vi.fn(actual.open),
    stat: vi.fn((path: string, options?: object) =>
      hung.has(path) ? new Promise(() => {}) : actual.stat(path, options as { bigint: true }),
    ),
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-secret-source-'));
  vi.mocked(fs.open).mockClear();
  vi.mocked(fs.stat).mockClear();
});
afterEach(() => {
  hung.clear();
  vi.useRealTimers();
});

const read = (file: string) => readSecret({ file }, {}, 'bearer token', 'a');

describe('a secret file', () => {
  it('is read once while it does not change, and again as soon as it does', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'first-token\n');
    for (let i = 0; i < 5; i += 1) expect(await read(file)).toBe('first-token');
    expect(fs.open).toHaveBeenCalledTimes(1);
    writeFileSync(file, 'rotated-token\n');
    expect(await read(file)).toBe('rotated-token');
    expect(fs.open).toHaveBeenCalledTimes(2);
  });

  it('that is a FIFO is refused at once, without opening it, and DNS lookups go on', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    // Eight at once: a blocking open would take all four of libuv's threads (and DNS with them).
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => read(fifo)));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as Error;
      expect(error).toBeInstanceOf(CredentialMissingError);
      expect(error.message).toBe(
        `Agent "a" needs the file ${fifo} (bearer token), which is a FIFO (named pipe), not a regular file; mount the secret as a file.`,
      );
    }
    expect(fs.open).not.toHaveBeenCalled();
    await lookup('localhost');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('of 200 MB is refused from its size, without reading it', async () => {
    const big = join(dir, 'big');
    writeFileSync(big, '');
    truncateSync(big, 200 * 1024 * 1024); // sparse: 200 MB to stat, nothing written
    const started = performance.now();
    await expect(read(big)).rejects.toThrow(
      `Agent "a" needs the file ${big} (bearer token), which is 209715200 bytes, more than a secret file may hold (1048576 bytes): it is not a secret; point the entry at the secret's file.`,
    );
    expect(fs.open).not.toHaveBeenCalled();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('that is a directory, or empty, or missing, is refused with a sentence naming it', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    await expect(read(folder)).rejects.toThrow(/which is a directory, not a regular file/);
    const empty = join(dir, 'empty');
    writeFileSync(empty, ' \n');
    await expect(read(empty)).rejects.toThrow(
      `needs the file ${empty} (bearer token), which is empty; write the secret into it.`,
    );
    await expect(read(join(dir, 'missing'))).rejects.toThrow(
      /which cannot be read \(ENOENT\); mount the secret there\./,
    );
  });

  it('on a file system that does not answer fails within 2 s, and no second check starts while the first hangs', async () => {
    vi.useFakeTimers();
    const file = join(dir, 'on-a-hung-mount');
    hung.add(file);
    const first = read(file);
    const second = read(file);
    const failures = Promise.allSettled([first, second]);
    await vi.advanceTimersByTimeAsync(2000);
    for (const result of await failures) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(CredentialMissingError);
      expect(String((result as PromiseRejectedResult).reason)).toMatch(
        /which could not be read within 2 s \(its file system does not answer\)/,
      );
    }
    const third = read(file).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(2000);
    expect(String(await third)).toMatch(/within 2 s/);
    expect(fs.stat).toHaveBeenCalledTimes(1);
  });
});
