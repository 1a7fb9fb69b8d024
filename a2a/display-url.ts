/** URLs as error messages print them: no credentials, bounded. */
import { clip } from './error-text.js';

/** Longest URL kept in an error's `agentUrl`. */
const MAX_DISPLAY_URL = 200;

/** The URL without user info, query or fragment, at most 200 characters: safe to print. No regex touches it. */
export function displayUrl(url: string): string {
  const authority = url.indexOf('://');
  if (authority > 0 && isScheme(url.slice(0, authority))) {
    try {
      const u = new URL(url);
      return clip(`${u.protocol}//${u.host}${u.pathname}`, MAX_DISPLAY_URL);
    } catch {
      // Not a URL after all: fall through.
    }
  }
  // `host:port` (gRPC) is no URL with an authority: just drop any query or fragment.
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark);
    if (at !== -1 && at < end) end = at;
  }
  return clip(url.slice(0, end), MAX_DISPLAY_URL);
}

function isScheme(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!.toLowerCase();
    const letter = c >= 'a' && c <= 'z';
    if (!(letter || (i > 0 && ((c >= '0' && c <= '9') || c === '+' || c === '.' || c === '-')))) return false;
  }
  return text.length > 0;
}
