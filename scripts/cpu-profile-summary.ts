// `npx tsx scripts/cpu-profile-summary.ts DIR [--top N]`: where a profiled server's CPU went, by category. Reads every
// V8 `.cpuprofile` in DIR (node --cpu-prof writes one per thread: the event loop and each engine worker) and adds up
// self time per category of the call path (synthesis, resampling, Silero, echo gate, mu-law, framing, timers,
// sockets, JSON, GC…), per thread kind and in all. With --top, the heaviest functions left in "other" follow, to
// refine the rules. Used for the capacity profiles of docs/notes/performance-history.md (bench/telephony.ts with
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR").

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** First matching rule names the category; `url` and `name` are tested as given. */
const RULES: readonly { readonly category: string; readonly url?: RegExp; readonly name?: RegExp }[] = [
  { category: 'idle', name: /^\(idle\)$/ },
  { category: 'GC', name: /^\(garbage collector\)$/ },
  { category: 'synthesis (eSpeak)', url: /src\/engine\/espeak\// },
  { category: 'resampling', url: /src\/audio\/(resampler|fir-kernel)\.ts/ },
  { category: 'resampling', name: /^\$?polyphaseFir$/ },
  // The engines' WebAssembly is stripped of names (wasm-function[N] in wasm://wasm/…); the resampler's kernel keeps
  // its own, above. On an eSpeak worker thread the rest is eSpeak.
  { category: 'synthesis (WebAssembly engine)', url: /^wasm:\/\// },
  { category: 'clause shaping', url: /src\/audio\/(clip-shaping|clause-delivery)\.ts/ },
  { category: 'Silero inference', url: /src\/engine\/vad\/(ort-sync-session|silero-vad)\.ts|onnxruntime-node/ },
  { category: 'Silero batching + window prep', url: /src\/engine\/vad\/silero-batcher\.ts|src\/session\/(barge-in\/)?vad-window-stream\.ts/ },
  { category: 'barge-in detector + controller', url: /src\/session\/((barge-in\/)?(barge-in-[a-z-]+|call-barge-in|caller-audio-clock)|utterance-turn)\.ts/ },
  { category: 'echo gate', url: /src\/session\/(barge-in\/)?echo-gate\.ts/ },
  { category: 'mu-law', url: /alawmulaw|src\/audio\/mulaw\.ts/ },
  { category: 'PCM conversions', url: /src\/audio\/(pcm|bytes)\.ts/ },
  {
    category: 'framing, playout, marks',
    url: /src\/(telephony\/(wire-audio|frame-pacer|media-stream)|session\/(frame-plan|playout-clock|call-playback|playback-[a-z]+|call-session|synthesis-session|call-events)|audio\/(framing|output-pipeline|encoder))\.ts/,
  },
  { category: 'timers', url: /node:internal\/timers|src\/session\/clock\.ts/ },
  { category: 'timers', name: /^(processTimers|listOnTimeout|setTimeout|clearTimeout|setImmediate|processImmediate)$/ },
  { category: 'WebSocket + sockets', url: /node_modules\/ws\/|node:net|node:internal\/(stream_base_commons|net|streams\/)|src\/telephony\/stream-socket\.ts/ },
  { category: 'WebSocket + sockets', name: /^(writev|writeBuffer|writeUtf8String|writeLatin1String|onStreamRead|write|uncork)$/ },
  { category: 'JSON + base64 (provider messages)', url: /src\/telephony\/(json-frames|twilio\/|stream-events)|src\/util\/typed-json|node_modules\/zod\// },
  { category: 'JSON + base64 (provider messages)', name: /^(parse|stringify|base64Slice|base64Write|toString|from|byteLengthUtf8)$/ },
  { category: 'engine worker messages', url: /node:internal\/worker|src\/engine\/(worker-|pack-worker|metered-engine)/ },
  { category: 'engine worker messages', name: /^(postMessage|drainMessagePort|receiveMessageOnPort)$/ },
  { category: 'metrics + logging', url: /prom-client|pino|src\/metrics\/|src\/util\/event-loop-lag/ },
  { category: 'native, unattributed', name: /^\(program\)$/ },
];

function categorize(frame: ProfileNode['callFrame']): string {
  for (const rule of RULES) {
    if (rule.url && !rule.url.test(frame.url)) continue;
    if (rule.name && !rule.name.test(frame.functionName)) continue;
    return rule.category;
  }
  return 'other';
}

/** Self time (ms) per node id, from the sample stream. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; the sample's own duration is the next delta.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const id = profile.samples[i]!;
    times.set(id, (times.get(id) ?? 0) + ms);
  }
  return times;
}

const args = process.argv.slice(2);
const dir = args.find((arg) => !arg.startsWith('--'));
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 0;
if (!dir) {
  console.error('usage: npx tsx scripts/cpu-profile-summary.ts DIR [--top N]');
  process.exit(2);
}

const byThread = new Map<string, Map<string, number>>();
const others = new Map<string, number>();
for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const times = selfTimes(profile);
  // node names profiles CPU.<date>.<time>.<pid>.<thread id>.<seq>: thread 0 is the event loop.
  const threadId = file.split('.').at(-3);
  const thread = threadId === '0' ? 'event loop' : 'workers';
  const categories = byThread.get(thread) ?? new Map<string, number>();
  byThread.set(thread, categories);
  for (const node of profile.nodes) {
    const ms = times.get(node.id) ?? 0;
    if (ms === 0) continue;
    const category = categorize(node.callFrame);
    categories.set(category, (categories.get(category) ?? 0) + ms);
    if (category === 'other') {
      const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
      others.set(key, (others.get(key) ?? 0) + ms);
    }
  }
}

const total = new Map<string, number>();
for (const categories of byThread.values()) for (const [category, ms] of categories) total.set(category, (total.get(category) ?? 0) + ms);
const busy = (categories: Map<string, number>) => [...categories].filter(([c]) => c !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
const threads = [...byThread.keys()].sort();
const totalBusy = busy(total);
console.log(`| Category | ${threads.map((t) => `${t} (ms)`).join(' | ')} | all threads (ms) | share of busy time |`);
console.log(`|---|${threads.map(() => '---|').join('')}---|---|`);
for (const [category, ms] of [...total].filter(([c]) => c !== 'idle').sort((a, b) => b[1] - a[1])) {
  const cells = threads.map((t) => Math.round(byThread.get(t)!.get(category) ?? 0));
  console.log(`| ${category} | ${cells.join(' | ')} | ${Math.round(ms)} | ${((100 * ms) / totalBusy).toFixed(1)} % |`);
}
console.log(`| **busy** | ${threads.map((t) => Math.round(busy(byThread.get(t)!))).join(' | ')} | ${Math.round(totalBusy)} | 100 % |`);
if (top > 0) {
  console.log(`\ntop ${top} in "other":`);
  for (const [key, ms] of [...others].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
}
