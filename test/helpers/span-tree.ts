/** A trace's spans as a tree, and as indented text (for test output and the README). */
import type { ReceivedSpan } from './otlp-receiver.js';

export interface SpanNode {
  span: ReceivedSpan;
  children: SpanNode[];
}

/** The roots of `spans` (spans whose parent is not among them), children in start order. */
export function spanTree(spans: ReceivedSpan[]): SpanNode[] {
  const nodes = new Map(spans.map((span) => [span.spanId, { span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.span.parentSpanId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: SpanNode[]) => {
    list.sort((a, b) => a.span.startMs - b.span.startMs);
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

const SHOWN = [
  'a2a.agent',
  'a2a.operation',
  'http.response.status_code',
  'a2a.task_state',
  'a2a.answer.by',
  'error.type',
];

/** One line per span: indentation, name, service, a few attributes, duration. */
export function renderTree(roots: SpanNode[]): string {
  const lines: string[] = [];
  const walk = (node: SpanNode, depth: number) => {
    const { span } = node;
    const attrs = SHOWN.filter(
      (k) => span.attributes[k] !== undefined && !(k === 'a2a.operation' && span.name.startsWith('A2A ')),
    )
      .map((k) => `${k}=${String(span.attributes[k])}`)
      .join(' ');
    const service = String(span.resource['service.name'] ?? '?').replace(/^a2a-temporal-?/, '') || 'worker';
    lines.push(
      `${'  '.repeat(depth)}${span.name} [${service}]${attrs ? ` ${attrs}` : ''} ${span.endMs - span.startMs} ms`,
    );
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const root of roots) walk(root, 0);
  return lines.join('\n');
}
