// Raaga side by side with what a user might run instead, in the same run on the same Hindi texts (60 and 1000
// code points), 1 and 4 concurrent clients, rounds interleaved so every system sees the same machine:
// - Festival's TTS server (`festival --server`, Debian's festival + festvox-hi-nsk Hindi diphone voice, 16 kHz) over
//   its TCP protocol, against Raaga's POST /v1/tts/stream at 16 kHz pcm (embedded engine). No HTTP TTS server is
//   packaged for Debian or npm; Festival's is the network TTS server that is.
// - The raw engine: Debian's native `espeak-ng` CLI (process start included; its start-up alone is measured too)
//   against Raaga's engine path without HTTP (front end + eSpeak NG WebAssembly worker + resampling to 16 kHz pcm).
// Skips (exit 0, result marked skipped) when a peer binary is missing:
//   apt-get install -y espeak-ng festival festvox-hi-nsk

import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVoiceCatalog } from '../src/core/voice-catalog.js';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { LONG_HINDI, SHORT_HINDI } from './lib/sample-texts.js';
import { round, summary, writeResult } from './lib/stats.js';
import { timedHttpStream, type TimedUtterance } from './lib/tts-clients.js';

const INSTALL = 'apt-get install -y espeak-ng festival festvox-hi-nsk';
const HINDI_VOICE_DIR = '/usr/share/festival/voices/hindi/hindi_NSK_diphone';
const TEXTS = { short: SHORT_HINDI, long: LONG_HINDI } as const;
const ROUNDS: Record<keyof typeof TEXTS, Record<number, number>> = { short: { 1: 20, 4: 8 }, long: { 1: 8, 4: 3 } };
const VOICE = 'priya';
type System = 'raaga-http' | 'festival-server' | 'raaga-engine' | 'espeak-ng-cli';
interface Run extends TimedUtterance {
  readonly audioSeconds: number;
}

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Seconds of audio in a 16-bit mono RIFF file (sizes in the header may be placeholders when streamed). */
function wavSeconds(bytes: Buffer): number {
  const rate = bytes.readUInt32LE(24);
  return (bytes.length - 44) / 2 / rate;
}

/** Festival's server with the Hindi voice; Debian's voice file leaves the intonation method unset, so set it. */
async function startFestival(dir: string): Promise<{ port: number; stop: () => void }> {
  const port = await freePort();
  const init = join(dir, 'festival-init.scm');
  await writeFile(
    init,
    [
      `(set! server_port ${port})`,
      `(set! server_access_list '("localhost" "127.0.0.1" "localhost.localdomain"))`,
      '(voice_hindi_NSK_diphone)',
      "(Parameter.set 'Int_Method 'Simple)",
      '(set! int_simple_params hindi_el_int_simple_params)',
      "(Parameter.set 'Wavefiletype 'riff)",
    ].join('\n'),
  );
  const child = spawn('festival', [init, '--server'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('festival server did not start in 10 s')), 10_000);
    const onData = (data: Buffer): void => {
      if (data.toString().includes('server started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`festival exited with ${code}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return { port, stop: () => child.kill() };
}

/** One `tts_textall` over Festival's protocol: `WV\n` + a RIFF file per utterance, then `OK\n`. */
function festivalSay(port: number, text: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfbMs = -1;
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.on('data', (data: Buffer) => {
      if (ttfbMs < 0) ttfbMs = performance.now() - started;
      chunks.push(data);
      const tail = data.subarray(-3).toString('latin1');
      if (tail === 'OK\n' || tail === 'ER\n') {
        const totalMs = performance.now() - started;
        socket.end();
        const all = Buffer.concat(chunks);
        if (tail === 'ER\n') return reject(new Error('festival answered ER'));
        // Wave files sit between `WV\n` and the `ft_StUfF_key` terminator.
        let audioSeconds = 0;
        for (let at = all.indexOf('WV\n'); at >= 0; at = all.indexOf('WV\n', at + 3)) {
          const end = all.indexOf('ft_StUfF_key', at);
          audioSeconds += wavSeconds(all.subarray(at + 3, end < 0 ? all.length : end));
        }
        resolve({ ttfbMs, totalMs, bytes: all.length, audioSeconds });
      }
    });
    socket.on('error', reject);
    socket.write(`(tts_textall "${text.replace(/["\\]/g, '\\$&')}" "nil")\n`);
  });
}

/** The native CLI from process start to exit, WAV to stdout. */
function espeakSay(text: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfbMs = -1;
    const chunks: Buffer[] = [];
    const child = spawn('espeak-ng', ['-v', 'hi', '--stdout', text], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (data: Buffer) => {
      if (ttfbMs < 0) ttfbMs = performance.now() - started;
      chunks.push(data);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`espeak-ng exited with ${code}`));
      const all = Buffer.concat(chunks);
      resolve({ ttfbMs, totalMs: performance.now() - started, bytes: all.length, audioSeconds: all.length > 44 ? wavSeconds(all) : 0 });
    });
  });
}

async function main(): Promise<void> {
  const missing = [
    ...(['espeak-ng', 'festival'] as const).filter((binary) => !onPath(binary)),
    ...(existsSync(HINDI_VOICE_DIR) ? [] : ['festvox-hi-nsk']),
  ];
  if (missing.length > 0) {
    const message = `peer comparison skipped: ${missing.join(', ')} not installed (install with: ${INSTALL})`;
    console.log(message);
    await writeResult('peer-tts', { skipped: true, reason: message });
    return;
  }
  const espeakVersion = spawnSync('espeak-ng', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const festivalVersion = spawnSync('festival', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const dir = await mkdtemp(join(tmpdir(), 'raaga-bench-peer-'));
  const catalog = loadVoiceCatalog(join('models', 'raaga-v1', 'manifest.json'));
  const festival = await startFestival(dir);
  let server: TestServer | undefined;
  try {
    server = await startTestServer({ TTS_WORKERS: '2' });
    const raaga = server;
    const keys = await Promise.all(Array.from({ length: 4 }, async () => (await raaga.account('growth', 100_000_000)).keys[0] as string));
    const audio = { voice: VOICE, language: 'hi-IN', format: 'pcm', sampleRateHz: 16000 } as const;
    const say: Record<System, (text: string, client: number) => Promise<Run>> = {
      'raaga-http': async (text, client) => {
        const run = await timedHttpStream(raaga.url, keys[client]!, audio, text);
        return { ...run, audioSeconds: run.bytes / 2 / 16000 };
      },
      'festival-server': (text) => festivalSay(festival.port, text),
      'raaga-engine': async (text) => {
        const utterance = raaga.deps.synthesis.utterance({
          text,
          language: 'hi-IN',
          voice: { voiceName: VOICE, pitchShiftSemitones: 0, rateMultiplier: 1 },
          format: 'pcm',
          sampleRateHz: 16000,
          speed: 1,
          mode: 'streaming',
        });
        const started = performance.now();
        let ttfbMs = -1;
        let bytes = 0;
        for await (const chunk of utterance.audio(new AbortController().signal)) {
          if (ttfbMs < 0 && chunk.length > 0) ttfbMs = performance.now() - started;
          bytes += chunk.length;
        }
        return { ttfbMs, totalMs: performance.now() - started, bytes, audioSeconds: bytes / 2 / 16000 };
      },
      'espeak-ng-cli': (text) => espeakSay(text),
    };
    const systems = Object.keys(say) as System[];
    // Warm every path once.
    for (const system of systems) await say[system](SHORT_HINDI, 0);
    const startup: number[] = [];
    for (let i = 0; i < 10; i++) startup.push((await espeakSay('')).totalMs);

    const loadBefore = loadavg()[0] ?? NaN;
    const cells: { text: string; concurrency: number; system: System; n: number; audioSeconds: number; ttfbMs: ReturnType<typeof summary>; totalMs: ReturnType<typeof summary>; computePerAudioSecondMs: number }[] = [];
    for (const text of Object.keys(TEXTS) as (keyof typeof TEXTS)[]) {
      for (const concurrency of [1, 4]) {
        const runs = new Map<System, Run[]>(systems.map((system) => [system, []]));
        for (let round = 0; round < ROUNDS[text][concurrency]!; round++) {
          for (const system of systems) {
            const batch = await Promise.all(Array.from({ length: concurrency }, (_, client) => say[system](TEXTS[text], client)));
            runs.get(system)!.push(...batch);
          }
        }
        for (const system of systems) {
          const all = runs.get(system)!;
          const audioSeconds = all[0]!.audioSeconds;
          const totalMs = summary(all.map((run) => run.totalMs));
          cells.push({ text, concurrency, system, n: all.length, audioSeconds: round(audioSeconds, 2), ttfbMs: summary(all.map((run) => run.ttfbMs)), totalMs, computePerAudioSecondMs: round(totalMs.p50 / audioSeconds, 2) });
        }
      }
    }
    const cell = (text: string, concurrency: number, system: System) => cells.find((c) => c.text === text && c.concurrency === concurrency && c.system === system)!;
    const ratios = cells
      .filter((c) => c.system === 'raaga-http' || c.system === 'raaga-engine')
      .map((c) => {
        const peer = cell(c.text, c.concurrency, c.system === 'raaga-http' ? 'festival-server' : 'espeak-ng-cli');
        return {
          raaga: c.system,
          peer: peer.system,
          text: c.text,
          concurrency: c.concurrency,
          ttfbP50: round(c.ttfbMs.p50 / peer.ttfbMs.p50, 2),
          totalP50: round(c.totalMs.p50 / peer.totalMs.p50, 2),
          perAudioSecond: round(c.computePerAudioSecondMs / peer.computePerAudioSecondMs, 2),
        };
      });
    const file = await writeResult('peer-tts', {
      what: 'Raaga vs Festival server (network TTS) and vs the native espeak-ng CLI (raw engine), same Hindi texts, same run; ratios are Raaga / peer',
      peers: { festival: `${festivalVersion}, voice hindi_NSK_diphone (festvox-hi-nsk), 16 kHz, TCP protocol`, espeakNg: `${espeakVersion}, voice hi, 22.05 kHz WAV on stdout` },
      raaga: { voice: VOICE, engine: 'embedded eSpeak NG (WebAssembly), 2 workers', format: 'pcm', sampleRateHz: 16000 },
      texts: { short: [...SHORT_HINDI].length, long: [...LONG_HINDI].length },
      espeakCliStartupMs: summary(startup),
      loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
      cells,
      ratios,
      install: INSTALL,
    });
    const r = (raagaSystem: string, text: string, concurrency: number) => ratios.find((x) => x.raaga === raagaSystem && x.text === text && x.concurrency === concurrency)!;
    console.log(
      `peer (Raaga / peer, total p50): HTTP stream vs Festival server short ${r('raaga-http', 'short', 1).totalP50}x long ${r('raaga-http', 'long', 1).totalP50}x ` +
        `(TTFB long ${r('raaga-http', 'long', 1).ttfbP50}x); engine vs espeak-ng CLI short ${r('raaga-engine', 'short', 1).totalP50}x long ${r('raaga-engine', 'long', 1).totalP50}x ` +
        `(per audio second ${r('raaga-engine', 'long', 1).perAudioSecond}x) → ${file}`,
    );
  } finally {
    await server?.close();
    festival.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
