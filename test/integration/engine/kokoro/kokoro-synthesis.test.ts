// A Kokoro job end to end on real eSpeak and onnxruntime with the tone model: the ids the model received are the
// phonemizer's tokens, each run gets the style row of its own length and the job's speed, and long text is split
// into runs of at most 510 tokens.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeKokoroStyleRow } from '../../../../fixtures/voices/lib/kokoro-style-file.js';
import { KokoroPhonemizer, type KokoroLanguage } from '../../../../src/engine/kokoro/kokoro-phonemizer.js';
import { KokoroSession } from '../../../../src/engine/kokoro/kokoro-session.js';
import { KokoroStyle } from '../../../../src/engine/kokoro/kokoro-style.js';
import { synthesizeKokoro, type KokoroVoice } from '../../../../src/engine/kokoro/kokoro-synthesis.js';
import { tokenize } from '../../../../src/engine/kokoro/kokoro-vocab.js';
import { decodeKokoroTone } from '../../../helpers/kokoro-tone-decoder.js';
import { kokoroVoiceFiles, type KokoroVoiceFiles } from '../../../helpers/kokoro-voice-files.js';
import { LONG_HINDI, SENTENCES } from '../sentences.js';

let files: KokoroVoiceFiles;
let phonemizer: KokoroPhonemizer;
let session: KokoroSession;
const styles = new Map<number, KokoroStyle>();
const voice = (language: KokoroLanguage, seed: number): KokoroVoice => ({ session, style: styles.get(seed) as KokoroStyle, language });

beforeAll(async () => {
  files = await kokoroVoiceFiles();
  phonemizer = await KokoroPhonemizer.create();
  session = await KokoroSession.create(await files.model('model.onnx'), { intraOpNumThreads: 1 });
  for (const seed of [1, 2]) styles.set(seed, await KokoroStyle.load(await files.style(`voice-${seed}.bin`, seed)));
});
afterAll(async () => {
  await session.release();
  await files.remove();
});

describe('Kokoro synthesis', () => {
  it('gives the model the phonemizer`s tokens, the row for their count and the speed (English)', async () => {
    const text = SENTENCES['en-IN'];
    const clip = await synthesizeKokoro(phonemizer, voice('b', 1), text, { speed: 1.25 });
    expect(clip.sampleRateHz).toBe(24_000);
    expect(clip.phonemes).toBe('həlˈəʊ, jɔːɹ ˈɔːdə wɪl ɐɹˈaɪv təmˈɒɹəʊ mˈɔːnɪŋ.');
    const runs = decodeKokoroTone(clip.samples);
    expect(runs.map((run) => run.ids)).toEqual(tokenize(clip.phonemes).runs.map((run) => run.ids));
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run?.speed).toBe(1.25);
    expect(decodeKokoroStyleRow(run?.style ?? [])).toEqual({ seed: 1, row: (run?.ids.length ?? 0) - 2, intact: true });
    expect(clip.unknown.size).toBe(0);
  });

  it('reads Hindi with eSpeak `hi` and misaki`s symbols, every symbol in the vocabulary', async () => {
    const clip = await synthesizeKokoro(phonemizer, voice('h', 2), SENTENCES['hi-IN'], { speed: 1 });
    // ũ as u + U+0303: the vocabulary has the combining tilde, not the precomposed letter.
    expect(clip.phonemes).toBe('nəmˈʌsteː, ˌaːpkˌaː ˈɔɾɖəɾ kˈʌl sˈʊbəh pəhˈu\u0303nceːɡˌaː');
    expect(clip.unknown.size).toBe(0);
    const [run] = decodeKokoroTone(clip.samples);
    expect(run?.ids).toEqual(clip.runs[0]?.ids);
    expect(decodeKokoroStyleRow(run?.style ?? [])).toEqual({ seed: 2, row: (run?.ids.length ?? 0) - 2, intact: true });
  });

  it('splits text over 510 tokens into runs, each with the style row of its own length', async () => {
    const text = Array.from({ length: 4 }, () => LONG_HINDI).join(' ');
    const clip = await synthesizeKokoro(phonemizer, voice('h', 2), text, { speed: 2 });
    expect(clip.runs.length).toBeGreaterThan(1);
    const runs = decodeKokoroTone(clip.samples);
    expect(runs.map((run) => run.ids)).toEqual(clip.runs.map((run) => run.ids));
    for (const run of runs) {
      expect(run.ids.length - 2).toBeLessThanOrEqual(510);
      expect(run.ids[0]).toBe(0);
      expect(run.ids[run.ids.length - 1]).toBe(0);
      expect(run.speed).toBe(2);
      expect(decodeKokoroStyleRow(run.style)).toEqual({ seed: 2, row: run.ids.length - 2, intact: true });
    }
    // eSpeak drops the danda (misaki keeps no trace of it either), so the commas are where runs can end.
    expect(clip.runs.slice(0, -1).every((run) => run.phonemes.endsWith(','))).toBe(true);
    expect(clip.runs.map((run) => run.phonemes).join(' ')).toBe(clip.phonemes);
  });

  it('reports symbols it had to drop and still speaks the rest', async () => {
    // Marathi ळ comes out of eSpeak `hi` as ɭ, which Kokoro's vocabulary lacks.
    const clip = await synthesizeKokoro(phonemizer, voice('h', 1), 'सोळा रुपये', { speed: 1 });
    expect([...clip.unknown]).toEqual([['ɭ', 1]]);
    expect(decodeKokoroTone(clip.samples)[0]?.ids).toEqual(clip.runs[0]?.ids);
  });
});
