// The text front end, two parts (BENCH_PARTS=worst-case,ttfa, both by default).
// worst-case: main-thread time of checkText + splitUtterance on 3000-code-point texts in each of the eight languages,
// for every generated worst case (digit and separator chains, dotted names, unclosed forms, mixed scripts, SSML:
// test/unit/core/text/worst-case-texts.ts) against ordinary notice text of the same length and language, all run
// in alternation, BENCH_WORST_REPEATS (15) times each: median and p95 ms, and the ratio of the medians to ordinary
// text's (security review M1). Printed as JSON and written to bench/results/text-front-end.json.
// ttfa: time to first audio of POST /v1/tts/stream on a 1000-character Hindi paragraph (with amounts, dates, a phone
// number and an OTP for the front end to expand), first-chunk cap off (FIRST_CHUNK_MAX_CHARS=3000) vs the default
// 100, REPEATS requests each, interleaved one at a time against two in-process servers. Run: npx tsx bench/text-front-end.ts

import { performance } from 'node:perf_hooks';
import { ApiError } from '../src/errors.js';
import { splitUtterance } from '../src/core/text/split-utterance.js';
import { checkText, MAX_TEXT_CODE_POINTS } from '../src/core/text/text-limits.js';
import { LANGUAGE_CODES, type LanguageCode } from '../src/languages.js';
import { seeded } from '../test/helpers/seeded-random.js';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { ordinaryText, WORST_CASES } from '../test/unit/core/text/worst-case-texts.js';
import { percentile, round, summary, writeResult } from './lib/stats.js';
import { timedHttpStream, type AudioRequest, type TimedUtterance } from './lib/tts-clients.js';

const PARTS = new Set((process.env.BENCH_PARTS ?? 'worst-case,ttfa').split(',').map((part) => part.trim()));
const WORST_REPEATS = Number(process.env.BENCH_WORST_REPEATS ?? 15);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const MAX_CHUNK_CHARS = 300;

// Long sentences with clause marks, as in IVR notices; 1000 code points in all.
const SENTENCES = [
  'प्रिय ग्राहक, आपके बचत खाते में दिनांक 21/11/2026 को सुबह 10:30 AM पर ₹1,25,000 की राशि जमा की गई है, जिसके बाद आपका उपलब्ध शेष ₹2,45,678.50 हो गया है, और यदि यह लेनदेन आपने नहीं किया है तो कृपया तुरंत हमारे ग्राहक सेवा केंद्र से संपर्क करें, ताकि हम आपके खाते को सुरक्षित रख सकें।',
  'आपकी अगली ऋण किस्त ₹12,500 की है, जो 05/12/2026 तक देय है, और समय पर भुगतान न करने पर 2% का विलंब शुल्क लगेगा, इसलिए कृपया अपने खाते में पर्याप्त राशि बनाए रखें, या नेट बैंकिंग, मोबाइल ऐप अथवा नज़दीकी शाखा के माध्यम से भुगतान करें।',
  'किसी भी सहायता के लिए आप हमें +91 98765 43210 पर सुबह नौ बजे से रात नौ बजे तक कॉल कर सकते हैं, या हमारी वेबसाइट पर लिखित शिकायत दर्ज कर सकते हैं, और याद रखें कि बैंक कभी भी आपसे आपका पिन या ओटीपी नहीं माँगता, आपका ओटीपी 482913 है, इसे किसी के साथ साझा न करें, धन्यवाद।',
  'यह संदेश आपकी सुविधा के लिए भेजा गया है, आपकी ग्राहक संख्या 123456789012 है, और आपकी पॉलिसी का नवीनीकरण 15 जनवरी 2027 को होना है, जिसका प्रीमियम ₹8,450 है, कृपया समय पर भुगतान करें, ताकि आपको बिना रुकावट सेवाएँ मिलें।',
];
const PARAGRAPH = SENTENCES.join(' ');

const AUDIO: AudioRequest = { voice: 'priya', language: 'hi-IN', format: 'mulaw', sampleRateHz: 8000 };
const timedStream = (server: TestServer, key: string): Promise<TimedUtterance> => timedHttpStream(server.url, key, AUDIO, PARAGRAPH);

const variants = [
  { name: 'uncapped', firstChunkMaxChars: 3000 },
  { name: 'capped', firstChunkMaxChars: 100 },
] as const;

/** Wall-clock ms of what a request's text costs the main thread before any synthesis. */
function frontEndMs(text: string, language: LanguageCode): number {
  const started = performance.now();
  try {
    checkText(text);
    splitUtterance(text, { firstChunkMaxChars: 100, maxChunkChars: MAX_CHUNK_CHARS, language });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  return performance.now() - started;
}

const spread = (values: readonly number[]): { p50Ms: number; p95Ms: number } => ({ p50Ms: round(percentile(values, 50)), p95Ms: round(percentile(values, 95)) });

function worstCases(): Record<string, unknown> {
  const languages: Record<string, unknown> = {};
  for (const language of LANGUAGE_CODES) {
    const ordinary = ordinaryText(seeded(1), language, MAX_TEXT_CODE_POINTS);
    const cases = WORST_CASES.map((family, index) => ({ name: family.name, text: family.make(seeded(100 + index), language, MAX_TEXT_CODE_POINTS), runs: [] as number[] }));
    const ordinaryRuns: number[] = [];
    frontEndMs(ordinary, language); // warm-up
    for (const { text } of cases) frontEndMs(text, language);
    for (let repeat = 0; repeat < WORST_REPEATS; repeat++) {
      cases.forEach((worst, index) => {
        worst.runs.push(frontEndMs(worst.text, language));
        if (index % 4 === 0) ordinaryRuns.push(frontEndMs(ordinary, language));
      });
    }
    const base = spread(ordinaryRuns);
    const families = Object.fromEntries(
      cases.map(({ name, runs }) => {
        const measured = spread(runs);
        return [name, { ...measured, ratioP50: round(measured.p50Ms / base.p50Ms, 2), ratioP95: round(measured.p95Ms / base.p95Ms, 2) }];
      }),
    );
    const worst = cases.map(({ name }) => ({ name, ratio: (families[name] as { ratioP50: number }).ratioP50 })).sort((a, b) => b.ratio - a.ratio)[0];
    languages[language] = { ordinary: base, worstFamily: worst, families };
  }
  return { codePoints: MAX_TEXT_CODE_POINTS, repeats: WORST_REPEATS, firstChunkMaxChars: 100, maxChunkChars: MAX_CHUNK_CHARS, languages };
}

async function timeToFirstAudio(): Promise<Record<string, unknown>> {
  const servers: TestServer[] = [];
  try {
    const setups = [];
    for (const variant of variants) {
      const server = await startTestServer({ TTS_WORKERS: '2', FIRST_CHUNK_MAX_CHARS: String(variant.firstChunkMaxChars) });
      servers.push(server);
      const { keys } = await server.account('growth', 100_000_000);
      setups.push({ ...variant, server, key: keys[0] as string, runs: [] as TimedUtterance[] });
    }
    for (const setup of setups) await timedStream(setup.server, setup.key); // warm-up
    for (let i = 0; i < REPEATS; i++) {
      for (const setup of setups) setup.runs.push(await timedStream(setup.server, setup.key));
    }
    const results = Object.fromEntries(
      setups.map((setup) => {
        const chunks = splitUtterance(PARAGRAPH, { firstChunkMaxChars: setup.firstChunkMaxChars, maxChunkChars: MAX_CHUNK_CHARS, language: 'hi-IN' });
        return [
          setup.name,
          {
            firstChunkMaxChars: setup.firstChunkMaxChars,
            chunks: chunks.length,
            firstChunkCodePoints: chunks[0]?.codePoints,
            firstChunkSpokenChars: [...(chunks[0]?.text ?? '')].length,
            ttfaMs: summary(setup.runs.map((run) => run.ttfbMs)),
            totalMs: summary(setup.runs.map((run) => run.totalMs)),
          },
        ];
      }),
    );
    const uncapped = results.uncapped as { ttfaMs: { p50: number; p95: number } };
    const capped = results.capped as { ttfaMs: { p50: number; p95: number } };
    const ratio = { p50: round(uncapped.ttfaMs.p50 / capped.ttfaMs.p50, 2), p95: round(uncapped.ttfaMs.p95 / capped.ttfaMs.p95, 2) };
    console.log(
      `time to first audio, ${[...PARAGRAPH].length}-char Hindi paragraph: no cap p50 ${uncapped.ttfaMs.p50.toFixed(0)} ms / p95 ${uncapped.ttfaMs.p95.toFixed(0)} ms; ` +
        `cap 100 p50 ${capped.ttfaMs.p50.toFixed(0)} ms / p95 ${capped.ttfaMs.p95.toFixed(0)} ms; ratio p50 ${ratio.p50}x`,
    );
    return {
      language: 'hi-IN',
      paragraphCodePoints: [...PARAGRAPH].length,
      format: 'mulaw',
      sampleRateHz: 8000,
      repeats: REPEATS,
      workers: 2,
      results,
      ttfaRatioUncappedOverCapped: ratio,
    };
  } finally {
    for (const server of servers) await server.close();
  }
}

const result: Record<string, unknown> = {};
if (PARTS.has('worst-case')) {
  const worst = worstCases();
  result.worstCase = worst;
  console.log(JSON.stringify(worst, null, 1));
  const languages = worst.languages as Record<string, { ordinary: { p50Ms: number }; worstFamily: { name: string; ratio: number } }>;
  console.log(
    `front end, 3000 code points: ${Object.entries(languages).map(([language, { ordinary, worstFamily }]) => `${language} ordinary ${ordinary.p50Ms.toFixed(1)} ms, worst ${worstFamily.ratio}× (${worstFamily.name})`).join('; ')}`,
  );
}
if (PARTS.has('ttfa')) Object.assign(result, await timeToFirstAudio());
const file = await writeResult('text-front-end', result);
console.log(`→ ${file}`);
