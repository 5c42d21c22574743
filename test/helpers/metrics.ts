// One sample of a test server's GET /metrics (an unauthenticated scrape: tests run without METRICS_TOKEN).

import type { TestServer } from './test-server.js';

/** The value of the sample named exactly `name` (labels included, e.g. `x_total{event="hit"}`); 0 when absent. */
export async function metricValue(server: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}
