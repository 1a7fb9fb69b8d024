import { NamespaceNotFoundError } from '@temporalio/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryingNamespaceBlips, untilQuiet } from '../../../bench/wait.js';

describe('retryingNamespaceBlips', () => {
  afterEach(() => vi.restoreAllMocks());

  it('calls again while the server says the namespace is missing, and returns the first answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fn = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new NamespaceNotFoundError('default'))
      .mockResolvedValueOnce('started');
    await expect(retryingNamespaceBlips(fn, 3, 0)).resolves.toBe('started');
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('gives up after the bound, with the server’s error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fn = vi.fn<() => Promise<string>>().mockRejectedValue(new NamespaceNotFoundError('default'));
    await expect(retryingNamespaceBlips(fn, 3, 0)).rejects.toBeInstanceOf(NamespaceNotFoundError);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('throws any other error at once', async () => {
    const fn = vi.fn<() => Promise<string>>().mockRejectedValue(new Error('already started'));
    await expect(retryingNamespaceBlips(fn, 3, 0)).rejects.toThrow('already started');
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('untilQuiet', () => {
  it('waits window after window while the process is busy, and returns after the first quiet one', async () => {
    // CPU seconds read at the start and after each window: busy (0.5 s in a window), busy, then quiet.
    const readings = [0, 0.5, 1, 1];
    let read = 0;
    await untilQuiet(() => readings[read++]!, { windowMs: 1 });
    expect(read).toBe(4);
  });

  it('gives up after maxMs when the process stays busy', async () => {
    let cpu = 0;
    const waited = await untilQuiet(() => (cpu += 1), { windowMs: 1, maxMs: 5 });
    expect(waited).toBeGreaterThanOrEqual(5);
  });
});
