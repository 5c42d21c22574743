// Shared by every bench script: percentiles, machine description, and writing bench/results/<name>.json.

import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function summary(values: readonly number[]): { n: number; p50: number; p95: number; min: number; max: number } {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
  };
}

export function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}

export function machine(): Record<string, unknown> {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

export async function writeResult(name: string, result: Record<string, unknown>): Promise<string> {
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const file = new URL(`${name}.json`, dir);
  await writeFile(file, `${JSON.stringify({ name, at: new Date().toISOString(), machine: machine(), ...result }, null, 2)}\n`);
  return file.pathname;
}
