// Output helpers shared by the CLI commands: aligned tables, JSON for --json, CSV for --csv.

export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ');
  return [line(headers), ...rows.map(line)].join('\n');
}

/** `1 account`, `3 accounts`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** RFC 4180 CSV with a header row: fields with a comma, quote or line break are quoted, quotes doubled. */
export function csv(headers: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n');
}
