// Human output helpers shared by the CLI commands: aligned tables, key fingerprints, JSON for --json.

/** The first 12 hex chars of a key hash: enough to tell keys apart, useless to an attacker. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  return [line(headers), ...rows.map(line)].join('\n');
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
