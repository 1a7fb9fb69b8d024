/** Text helpers both sides use (sandbox-safe). */

/** Cuts `text` to at most `max` UTF-8 bytes, on a character boundary, with an ellipsis. */
export function truncateBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= max) return text;
  let cut = text.slice(0, max); // a character is at least one byte
  while (encoder.encode(`${cut}…`).length > max) cut = cut.slice(0, -1);
  return `${cut}…`;
}
