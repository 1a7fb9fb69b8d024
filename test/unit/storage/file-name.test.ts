import { describe, expect, it } from 'vitest';
import { safeFileName } from '../../../storage/file-name.js';

describe('safeFileName', () => {
  it('keeps an ordinary name', () => {
    expect(safeFileName('CHANGELOG.md', 'x')).toBe('CHANGELOG.md');
    expect(safeFileName('sbom.cdx.json', 'x')).toBe('sbom.cdx.json');
  });

  it('never lets a name leave its folder or hide', () => {
    expect(safeFileName('../../.bashrc', 'f')).toBe('bashrc');
    expect(safeFileName('..', 'f')).toBe('f');
    expect(safeFileName('/etc/passwd', 'f')).toBe('passwd');
    expect(safeFileName('C:\\Windows\\win.ini', 'f')).toBe('win.ini');
    expect(safeFileName('dir/', 'f')).toBe('f');
  });

  it('replaces control characters, quotes and spaces, and bounds the length keeping the extension', () => {
    expect(safeFileName('a\u0000b\u001b[31m"c d".txt', 'f')).toBe('a_b_31m_c_d_.txt');
    const long = safeFileName(`${'n'.repeat(500)}.tar.gz`, 'f');
    expect(long).toHaveLength(100);
    expect(long.endsWith('.gz')).toBe(true);
    expect(safeFileName('日本語.txt', 'f')).toBe('txt');
  });
});
