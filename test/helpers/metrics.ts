// Samples of GET /metrics: a test server's (an unauthenticated scrape: tests run without METRICS_TOKEN), or any
// scrape's text (the benches read their server process's).

import type { TestServer } from './test-server.js';

/** The value of the sample named exactly `name` (labels included, e.g. `x_total{event="hit"}`) in `text`; NaN when absent. */
export function sampleValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

/** The value of the sample named exactly `name` on `server`; 0 when absent. */
export async function metricValue(server: TestServer, name: string): Promise<number> {
  const value = sampleValue(await (await fetch(`${server.url}/metrics`)).text(), name);
  return Number.isNaN(value) ? 0 : value;
}
