/** Text helpers both sides use (sandbox-safe). */

/** Cuts `text` to at most `max` UTF-8 bytes, on a character boundary, with an ellipsis. */
export function truncateBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= max) return text;
  let cut = text.slice(0, max); // a character is at least one byte
  while (encoder.encode(`${cut}…`).length > max) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Characters that change how text reads without showing themselves: bidi controls (an RLO
 * makes `exe.txt` read `txt.exe`), zero-width and other invisible characters (two ids that look
 * the same, a word split so a filter misses it), line and paragraph separators (a line break
 * some terminals honour), the invisible tag characters (text only a model reads). Single
 * characters in one class: linear, no backtracking.
 */
const HIDDEN =
  /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;

/** `<U+202E>` for a hidden character. */
function codePoint(c: string): string {
  return `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with every bidi control and invisible character made visible as `<U+XXXX>`; nothing else changes. */
export function revealHidden(text: string): string {
  return replaceHidden(text, codePoint);
}

/** `text` with every character {@link revealHidden} shows replaced by `replacement(c)`. */
export function replaceHidden(text: string, replacement: (c: string) => string): string {
  return text.replace(HIDDEN, replacement);
}
