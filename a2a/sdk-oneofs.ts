/**
 * Agent cards written in the official JS SDK's internal form. The SDK's types follow ts-proto,
 * where a oneof is `{ "$case": "<field>", "value": … }`, and its card handler serves the card
 * with `JSON.stringify`, so agents built on it publish e.g.
 * `"securitySchemes": {"bearer": {"scheme": {"$case": "httpAuthSecurityScheme", "value": {"scheme": "Bearer"}}}}`
 * where A2A 1.0's JSON is `{"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}`. This
 * rewrites every such oneof into the wire form before the card is validated, so its schemes are
 * read like any other card's.
 */

/** True for `{ "$case": "<name>", "value": … }` and nothing else. */
function isSdkOneof(value: unknown): value is { $case: string; value: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const oneof = value as Record<string, unknown>;
  return keys.length === 2 && typeof oneof.$case === 'string' && oneof.$case !== '' && keys.includes('value');
}

/** Free-form JSON in a card (extension parameters, metadata): left as the agent wrote it. */
const FREE_FORM: ReadonlySet<string> = new Set(['params', 'metadata']);

/** Deepest nesting rewritten (a card was read within the JSON depth cap anyway). */
const MAX_DEPTH = 64;

/**
 * `json` with every SDK oneof (a property whose value is `{ "$case", "value" }`) replaced by
 * the field it names: `{ scheme: { $case: "x", value: v } }` becomes `{ x: v }`. Returns the
 * same value when there is none. Linear in the size of the card; the input is not changed.
 */
export function withWireOneofs(json: unknown, depth = 0): unknown {
  if (typeof json !== 'object' || json === null || depth >= MAX_DEPTH) return json;
  if (Array.isArray(json)) {
    let changed = false;
    const items = json.map((item) => {
      const next = withWireOneofs(item, depth + 1);
      changed ||= next !== item;
      return next;
    });
    return changed ? items : json;
  }
  let changed = false;
  const entries: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(json)) {
    if (isSdkOneof(value)) {
      entries.push([value.$case, withWireOneofs(value.value, depth + 1)]);
      changed = true;
    } else {
      const next = FREE_FORM.has(key) ? value : withWireOneofs(value, depth + 1);
      changed ||= next !== value;
      entries.push([key, next]);
    }
  }
  return changed ? Object.fromEntries(entries) : json;
}
