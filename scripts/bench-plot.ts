// `npx tsx scripts/bench-plot.ts`: draws docs/notes/performance.png from bench/results/latency.json (written by
// bench/latency.ts): time to first audio and total time (p50) against concurrent clients, per engine and text
// length, HTTP stream at 8 kHz mu-law. The SVG is made here; rsvg-convert (Debian's librsvg2-bin) rasterises it.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Cell {
  engine: 'embedded' | 'onnx';
  transport: 'http' | 'ws';
  format: string;
  text: 'short' | 'long';
  concurrency: number;
  ttfbMs: { p50: number; p95: number };
  totalMs: { p50: number; p95: number };
}
interface Series {
  label: string;
  color: string;
  dashed: boolean;
  points: { x: number; y: number }[];
}

const root = fileURLToPath(new URL('../', import.meta.url));
const latency = JSON.parse(readFileSync(`${root}bench/results/latency.json`, 'utf8')) as { cells: Cell[]; at: string; machine: { cpu: string; cores: number } };
const CLIENTS = [1, 4, 16];
const WIDTH = 460;
const HEIGHT = 330;
const PAD = { left: 62, right: 22, top: 40, bottom: 46 };
const COLORS = { embedded: '#1f77b4', onnx: '#d62728' };

function series(metric: 'ttfbMs' | 'totalMs', engine: Cell['engine'], text: Cell['text']): Series {
  const points = CLIENTS.flatMap((concurrency) => {
    const cell = latency.cells.find((c) => c.engine === engine && c.transport === 'http' && c.format === 'mulaw-8k' && c.text === text && c.concurrency === concurrency);
    return cell ? [{ x: concurrency, y: cell[metric].p50 }] : [];
  });
  const name = engine === 'embedded' ? 'eSpeak (embedded)' : 'ONNX medium voice';
  return { label: `${name}, ${text === 'short' ? '60' : '1000'} chars`, color: COLORS[engine], dashed: text === 'long', points };
}

function panel(offsetX: number, title: string, lines: Series[]): string {
  const ys = lines.flatMap((line) => line.points.map((point) => point.y));
  const low = Math.floor(Math.log10(Math.max(1, Math.min(...ys))));
  const high = Math.ceil(Math.log10(Math.max(...ys)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const xAt = (clients: number) => offsetX + PAD.left + (CLIENTS.indexOf(clients) / (CLIENTS.length - 1)) * plotW;
  const yAt = (ms: number) => PAD.top + plotH - ((Math.log10(ms) - low) / (high - low)) * plotH;
  const parts: string[] = [`<text x="${offsetX + WIDTH / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${title}</text>`];
  for (let decade = low; decade <= high; decade++) {
    const y = yAt(10 ** decade);
    const label = 10 ** decade >= 1000 ? `${10 ** (decade - 3)} s` : `${10 ** decade} ms`;
    parts.push(`<line x1="${offsetX + PAD.left}" x2="${offsetX + WIDTH - PAD.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text x="${offsetX + PAD.left - 6}" y="${y + 4}" text-anchor="end" font-size="11">${label}</text>`);
  }
  for (const clients of CLIENTS) {
    const x = xAt(clients);
    parts.push(`<line x1="${x}" x2="${x}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#eee"/>`);
    parts.push(`<text x="${x}" y="${PAD.top + plotH + 16}" text-anchor="middle" font-size="11">${clients}</text>`);
  }
  parts.push(`<text x="${offsetX + PAD.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle" font-size="12">concurrent clients</text>`);
  parts.push(`<rect x="${offsetX + PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`);
  for (const line of lines) {
    if (line.points.length === 0) continue;
    const path = line.points.map((point, i) => `${i === 0 ? 'M' : 'L'}${xAt(point.x).toFixed(1)},${yAt(point.y).toFixed(1)}`).join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${line.color}" stroke-width="2"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const point of line.points) parts.push(`<circle cx="${xAt(point.x).toFixed(1)}" cy="${yAt(point.y).toFixed(1)}" r="3.5" fill="${line.color}"/>`);
  }
  return parts.join('\n');
}

const lines = (metric: 'ttfbMs' | 'totalMs') => [series(metric, 'embedded', 'short'), series(metric, 'embedded', 'long'), series(metric, 'onnx', 'short'), series(metric, 'onnx', 'long')];
const legend = lines('totalMs')
  .map((line, i) => {
    const x = 70 + (i % 2) * 330;
    const y = HEIGHT + 10 + Math.floor(i / 2) * 20;
    return `<line x1="${x}" x2="${x + 30}" y1="${y}" y2="${y}" stroke="${line.color}" stroke-width="2"${line.dashed ? ' stroke-dasharray="6 4"' : ''}/><text x="${x + 38}" y="${y + 4}" font-size="12">${line.label}</text>`;
  })
  .join('\n');
const total = { width: WIDTH * 2, height: HEIGHT + 56 };
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${total.width}" height="${total.height}" font-family="DejaVu Sans, sans-serif">
<rect width="100%" height="100%" fill="white"/>
${panel(0, 'Time to first audio (p50)', lines('ttfbMs'))}
${panel(WIDTH, 'Total time of the request (p50)', lines('totalMs'))}
${legend}
<text x="${total.width - 8}" y="${total.height - 6}" text-anchor="end" font-size="10" fill="#666">POST /v1/tts/stream, Hindi, 8 kHz µ-law; ${latency.machine.cores} cores (${latency.machine.cpu}); ${latency.at.slice(0, 10)}</text>
</svg>
`;
const svgPath = `${root}bench/results/performance.svg`;
const pngPath = `${root}docs/notes/performance.png`;
writeFileSync(svgPath, svg);
const convert = spawnSync('rsvg-convert', ['-o', pngPath, svgPath], { stdio: 'inherit' });
if (convert.error || convert.status !== 0) {
  console.error(`wrote ${svgPath}; rsvg-convert is needed for the PNG (apt-get install -y librsvg2-bin)`);
  process.exit(1);
}
console.log(`wrote ${pngPath}`);
