// `npx tsx scripts/bench-report.ts`: prints the Markdown tables of docs/notes/performance-history.md from bench/results/latest.json
// (written by `npm run bench`), so the document can be refreshed from a run on other hardware. Sections whose
// result is missing are skipped.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Summary = { n: number; p50: number; p95: number; min: number; max: number };
type Json = Record<string, any>;

const root = fileURLToPath(new URL('../', import.meta.url));
const latest = JSON.parse(readFileSync(`${root}bench/results/latest.json`, 'utf8')) as { results: Record<string, Json>; ran: Record<string, { seconds: number }>; totalSeconds: number };
const r = latest.results;
const out: string[] = [];

const ms = (value: number | undefined): string => {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
};
const pair = (s: Summary | undefined) => (s ? `${ms(s.p50)} (${ms(s.p95)})` : '–');
const table = (head: string[], rows: string[][]) => {
  out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`), '');
};
const heading = (text: string) => out.push(`### ${text}`, '');

if (r.latency) {
  const cells = r.latency.cells as Json[];
  const find = (engine: string, transport: string, format: string, text: string, c: number) =>
    cells.find((x) => x.engine === engine && x.transport === transport && x.format === format && x.text === text && x.concurrency === c);
  const engineName = { embedded: 'eSpeak', onnx: 'ONNX medium' } as Record<string, string>;
  heading('Latency (bench/latency.ts): p50 (p95), ms unless marked');
  const rows: string[][] = [];
  for (const engine of ['embedded', 'onnx']) {
    for (const text of ['short', 'long']) {
      for (const c of [1, 4, 16]) {
        const http = find(engine, 'http', 'mulaw-8k', text, c);
        const ws = find(engine, 'ws', 'pcm-24k', text, c);
        if (!http && !ws) continue;
        rows.push([engineName[engine]!, text === 'short' ? '60' : '1000', String(c), pair(http?.ttfbMs), pair(http?.totalMs), pair(ws?.ttfbMs), pair(ws?.totalMs), http ? String(http.audioSecondsPerSecond) : '–']);
      }
    }
  }
  table(['Engine', 'Chars', 'Clients', 'HTTP µ-law 8k: first byte', 'HTTP: total', 'WS pcm 24k: first frame', 'WS: total', 'Audio s/s (HTTP)'], rows);
  out.push('<details><summary>Every cell (transport × format)</summary>', '');
  table(
    ['Engine', 'Chars', 'Transport', 'Format', 'Clients', 'n', 'Audio (s)', 'First audio', 'Total'],
    cells.map((x) => [engineName[x.engine]!, x.text === 'short' ? '60' : '1000', x.transport === 'http' ? 'HTTP' : 'WS', x.format, String(x.concurrency), String(x.n), String(x.audioSeconds), pair(x.ttfbMs), pair(x.totalMs)]),
  );
  out.push('</details>', '');
}

if (r['synthesis-rtf']) {
  const engines = r['synthesis-rtf'].engines as Record<string, Record<string, Record<string, Json>>>;
  heading('Real-time factor (bench/synthesis-rtf.ts): p50');
  const languages = Object.keys(engines.embedded?.['1-worker'] ?? {});
  table(
    ['Language', 'Audio (s), eSpeak / ONNX', 'eSpeak 1 worker', 'eSpeak 2 workers', 'eSpeak 2 workers, 2 streams', 'ONNX 1 worker', 'ONNX 2 workers', 'ONNX 2 workers, 2 streams'],
    languages.map((language) => {
      const e1 = engines.embedded!['1-worker']![language]!;
      const e2 = engines.embedded!['2-workers']![language]!;
      const o1 = engines.onnx?.['1-worker']?.[language];
      const o2 = engines.onnx?.['2-workers']?.[language];
      return [language, `${e1.audioSeconds} / ${o1?.audioSeconds ?? '–'}`, String(e1.rtf.p50), String(e2.rtf.p50), String(e2.rtfTwoStreams?.p50 ?? '–'), String(o1?.rtf.p50 ?? '–'), String(o2?.rtf.p50 ?? '–'), String(o2?.rtfTwoStreams?.p50 ?? '–')];
    }),
  );
  const overview = r['synthesis-rtf'].overview as Record<string, Json>;
  table(['Engine / workers', 'RTF p50, one stream', 'RTF p50, two streams (aggregate)', 'Real-time streams'], Object.entries(overview).map(([name, o]) => [name, String(o.rtfP50), String(o.rtfTwoStreamsP50 ?? '–'), String(o.realTimeStreams)]));
}

if (r.admission) {
  heading('Admission (bench/admission.ts): ms');
  table(
    ['Store', 'Concurrency', 'Requests/s', 'Auth p50', 'Admit p50 (p95)', 'Whole cycle p50 (p95)'],
    (r.admission.runs as Json[]).map((x) => [x.store, String(x.concurrency), String(x.cyclesPerSecond), ms(x.authMs?.p50), pair(x.admitMs), pair(x.cycleMs)]),
  );
}

if (r['peer-tts'] && !r['peer-tts'].skipped) {
  heading('Side by side (bench/peer-tts.ts): p50, ms');
  const cells = r['peer-tts'].cells as Json[];
  const names: Record<string, string> = { 'raaga-http': 'Raaga, HTTP stream', 'festival-server': 'Festival server', 'raaga-engine': 'Raaga engine (no HTTP)', 'espeak-ng-cli': 'espeak-ng CLI' };
  table(
    ['Chars', 'Clients', 'System', 'Audio (s)', 'First audio', 'Total', 'ms per audio second'],
    cells.map((x) => [x.text === 'short' ? '60' : '1000', String(x.concurrency), names[x.system] ?? x.system, String(x.audioSeconds), pair(x.ttfbMs), pair(x.totalMs), String(x.computePerAudioSecondMs)]),
  );
  table(
    ['Raaga / peer', 'Chars', 'Clients', 'First audio', 'Total', 'Per audio second'],
    (r['peer-tts'].ratios as Json[]).map((x) => [`${names[x.raaga]} / ${names[x.peer]}`, x.text === 'short' ? '60' : '1000', String(x.concurrency), `${x.ttfbP50}×`, `${x.totalP50}×`, `${x.perAudioSecond}×`]),
  );
}

if (r['barge-in']) {
  const b = r['barge-in'];
  heading(`Barge-in (bench/barge-in.ts): n = ${b.n}, ms`);
  table(
    ['From the caller speech onset to', 'p50', 'p95', 'min', 'max'],
    [
      ['`speech_started` at the agent', b.onsetToSpeechStartedMs],
      ['`clear` at Twilio (peer)', b.onsetToClearMs],
      ['`cancellation` at the agent', b.onsetToCancellationMs],
      ['`interrupted` at the agent', b.onsetToInterruptedMs],
      ['Bot audio the caller heard after the onset', b.leakedAfterOnsetMs],
      ['Audio `clear` threw away (send-ahead buffer)', b.discardedByClearMs],
    ].map(([label, s]) => [label as string, ms((s as Summary).p50), ms((s as Summary).p95), ms((s as Summary).min), ms((s as Summary).max)]),
  );
}

if (r.telephony) {
  const t = r.telephony;
  heading('Phone calls (bench/telephony.ts)');
  table(
    Object.keys((t.capacity.levels as Json[])[0] ?? {}),
    (t.capacity.levels as Json[]).map((level) => Object.values(level).map(String)),
  );
  out.push(`Sustained: ${t.capacity.sustainedCalls} calls${t.capacity.callsPerCore !== undefined ? `, ${t.capacity.callsPerCore} per core` : ''}.`, '');
}

heading('Run time per script (s)');
table(Object.keys(latest.ran), [Object.values(latest.ran).map((x) => String(x.seconds))]);
console.log(out.join('\n'));
