import { NamespaceNotFoundError } from '@temporalio/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryingNamespaceBlips } from '../../../bench/wait.js';

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
