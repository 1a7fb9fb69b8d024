/** Reads a Prometheus text exposition (`GET /metrics`) into samples, for tests that scrape a real endpoint. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export async function scrapePrometheus(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return parseExposition(await res.text());
}

/** `name{a="b",…} value [timestamp]` lines; comments and blank lines are skipped. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const brace = line.indexOf('{');
    const close = line.lastIndexOf('}');
    const name = brace === -1 ? line.split(' ')[0]! : line.slice(0, brace);
    const labels: Record<string, string> = {};
    if (brace !== -1) {
      for (const m of line.slice(brace + 1, close).matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
      }
    }
    const rest = (brace === -1 ? line.slice(name.length) : line.slice(close + 1)).trim().split(' ');
    samples.push({ name, labels, value: Number(rest[0]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`; undefined when none matches. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return matching.length ? matching.reduce((sum, s) => sum + s.value, 0) : undefined;
}
