/**
 * File names from agents are untrusted: `../../.bashrc`, `C:\x`, control characters, a
 * thousand characters. `safeFileName` keeps the last path segment's letters, digits, `.`, `_`
 * and `-` (anything else becomes `_`), never a leading dot, at most 100 characters with the
 * extension kept: a name that is safe as one path segment and in a header.
 */
export function safeFileName(name: string, fallback: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+/, '');
  if (!cleaned || /^\.*$/.test(cleaned)) return fallback;
  if (cleaned.length <= 100) return cleaned;
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(cleaned)?.[0] ?? '';
  return cleaned.slice(0, 100 - ext.length) + ext;
}
