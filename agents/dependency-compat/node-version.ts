/** "Node.js 24", "node 22", "Node 24", "target node v24", "nodejs v24.1.0" (case-insensitive). */
const NAMED_VERSION = /\bnode(?:\.?js)?\s*(?:version\s*)?v?(\d{1,3})(?:\.\d+){0,2}(?!\d)/i;
/** A bare answer: "24", "v24", "24.1.0". */
const BARE_VERSION = /^\s*v?(\d{1,3})(?:\.\d+){0,2}\s*\.?\s*$/i;

export interface ParseOptions {
  /** Accept a bare number ("24", "v24"): only when the text answers "which Node.js version?". */
  bare?: boolean;
}

/**
 * The Node.js major version a text names, or undefined.
 * @example parseTargetNode('Analyse payment-service for Node.js 24') // 24
 * @example parseTargetNode('v24', { bare: true }) // 24
 */
export function parseTargetNode(text: string, options: ParseOptions = {}): number | undefined {
  const match = NAMED_VERSION.exec(text) ?? (options.bare ? BARE_VERSION.exec(text) : null);
  if (!match) return undefined;
  const major = Number(match[1]);
  return major >= 1 && major < 100 ? major : undefined;
}
