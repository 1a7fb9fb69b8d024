/** A workflow history as text, for searching it (for a secret, say). */

/** Everything in a history: the events as JSON plus every byte field (payloads) decoded. */
export function historyText(history: unknown): string {
  const decoded: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) decoded.push(Buffer.from(value).toString('utf8'));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(history);
  return `${JSON.stringify(history)}\n${decoded.join('\n')}`;
}
