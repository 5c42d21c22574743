// POST /v1/audio/speech's body as one of Raaga's syntheses: the accepted models, the voice forms, the language order
// (field, voice suffix, script), the 4096 code point input, the formats Raaga encodes, and the speed clamp.

import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../../../../src/audio/formats.js';
import { ApiError } from '../../../../src/errors.js';
import { speechRequest, SpeechBodySchema, type SpeechBody } from '../../../../src/api/openai/speech-request.js';
import { voiceAliases } from '../../../../src/api/openai/voice-aliases.js';
import { catalog } from '../../../helpers/espeak-engine.js';

const names = { presets: new Set(catalog.voices().map((voice) => voice.name)), aliases: voiceAliases(catalog) };
const HINDI = 'नमस्ते, आपका खाता सक्रिय है।';

function request(fields: Partial<SpeechBody> & Record<string, unknown> = {}) {
  return speechRequest(SpeechBodySchema.parse({ model: 'tts-1', input: 'Hello there.', voice: 'alloy', ...fields }), names);
}

function refusal(fields: Partial<SpeechBody> & Record<string, unknown>): ApiError {
  try {
    request(fields);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(fields)}`);
}

describe('speechRequest', () => {
  it('defaults: mp3 audio at 24 kHz, speed 1, billed as openai_speech', () => {
    const speech = request();
    expect(speech.synthesis).toEqual({
      text: 'Hello there.',
      codePoints: 12,
      voice: 'priya',
      language: 'en-IN',
      format: 'mp3',
      sampleRateHz: 24000,
      speed: 1,
      endpoint: 'openai_speech',
    });
    expect(speech).toMatchObject({ streamFormat: 'audio', contentType: 'audio/mpeg', languageSource: 'script', voice: { alias: 'alloy' } });
  });

  it.each(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'raaga-v1', 'gpt-4o-mini-tts-2025-12-15', 'tts-1-hd-1106'])('accepts model %s', (model) => {
    expect(request({ model }).synthesis.voice).toBe('priya');
  });

  it.each(['kokoro', 'whisper-1', 'gpt-4o', 'TTS-1', 'gpt-4o-mini-tts-latest'])('refuses model %s naming the accepted ones', (model) => {
    const error = refusal({ model });
    expect(error).toMatchObject({ code: 'invalid_model_id', field: 'model' });
    expect(error.message).toMatch(/tts-1, tts-1-hd, gpt-4o-mini-tts, raaga-v1/);
  });

  it.each([
    ['priya', 'priya', undefined],
    ['PRIYA', 'priya', undefined],
    ['priya:hi-IN', 'priya', 'hi-IN'],
    ['priya:ta', 'priya', 'ta-IN'],
    ['Onyx:mr_in', 'vikram', 'mr-IN'],
    ['af_heart', 'sneha', undefined],
    ['vc_Abc123', 'vc_Abc123', undefined],
    ['vc_Abc123:gu-IN', 'vc_Abc123', 'gu-IN'],
  ] as const)('voice %s is %s with language %s', (voice, raaga, language) => {
    expect(request({ voice }).voice).toMatchObject({ voice: raaga, language });
    expect(request({ voice: { id: voice } }).voice).toMatchObject({ voice: raaga, language });
  });

  it('refuses an unknown voice and an unknown suffix, naming the voice field', () => {
    expect(refusal({ voice: 'nobody' })).toMatchObject({ code: 'voice_language_not_found', field: 'voice', message: expect.stringMatching(/Unknown voice 'nobody'.*alloy/) });
    expect(refusal({ voice: 'priya:fr-FR' })).toMatchObject({ code: 'validation_error', field: 'voice', message: expect.stringMatching(/'fr-FR' is not a language Raaga speaks/) });
  });

  it('language: the field, else the voice suffix, else the script (Devanagari is Hindi)', () => {
    expect(request({ input: HINDI, voice: 'priya:bn-IN', language: 'ta' }).synthesis.language).toBe('ta-IN');
    expect(request({ input: HINDI, voice: 'priya:bn-IN' })).toMatchObject({ synthesis: { language: 'bn-IN' }, languageSource: 'voice' });
    expect(request({ input: HINDI })).toMatchObject({ synthesis: { language: 'hi-IN' }, languageSource: 'script' });
    expect(request({ input: HINDI, language: 'MR-in' })).toMatchObject({ synthesis: { language: 'mr-IN' }, languageSource: 'language' });
    expect(refusal({ language: 'ml' })).toMatchObject({ code: 'validation_error', field: 'language', message: expect.stringMatching(/en-IN, hi-IN.*\(or en, hi/) });
  });

  it('input: at most 4096 code points (not UTF-16 units), something to say, SSML checked; errors name input', () => {
    expect(request({ input: '😀'.repeat(4096) }).synthesis.codePoints).toBe(4096);
    expect(refusal({ input: 'a'.repeat(4097) })).toMatchObject({ code: 'text_too_long', field: 'input', message: expect.stringMatching(/4097.*4096/) });
    expect(refusal({ input: '  ' })).toMatchObject({ code: 'validation_error', field: 'input', message: "Field 'input' must contain something to say." });
    expect(refusal({ input: '<speak>unclosed' })).toMatchObject({ code: 'validation_error', field: 'input' });
  });

  it.each([
    ['mp3', 'audio/mpeg'],
    ['wav', 'audio/wav'],
    ['pcm', 'audio/pcm'],
  ] as const)('response_format %s is sent as %s', (format, contentType) => {
    expect(request({ response_format: format })).toMatchObject({ synthesis: { format }, contentType });
  });

  it('aac and flac are refused naming what is supported; opus only once the audio layer encodes it', () => {
    const opus = (OUTPUT_FORMATS as readonly string[]).includes('opus');
    for (const format of ['aac', 'flac'] as const) {
      const supported = `mp3, wav, pcm${opus ? ', opus' : ''}.`;
      expect(refusal({ response_format: format })).toMatchObject({ code: 'validation_error', field: 'response_format', message: `unsupported response_format '${format}'; use one of ${supported}` });
    }
    if (opus) expect(request({ response_format: 'opus' })).toMatchObject({ synthesis: { format: 'opus' }, contentType: 'audio/ogg' });
    else expect(refusal({ response_format: 'opus' })).toMatchObject({ field: 'response_format', message: expect.stringMatching(/'opus' is not available/) });
  });

  it('speed: 0.25-4.0 accepted and clamped into 0.5-2.0; outside it is refused', () => {
    expect([0.25, 0.5, 1.3, 2, 4].map((speed) => request({ speed }).synthesis.speed)).toEqual([0.5, 0.5, 1.3, 2, 2]);
    expect(SpeechBodySchema.safeParse({ model: 'tts-1', input: 'a', voice: 'alloy', speed: 4.01 }).success).toBe(false);
    expect(SpeechBodySchema.safeParse({ model: 'tts-1', input: 'a', voice: 'alloy', speed: 0.2 }).success).toBe(false);
  });

  it('ignores instructions and fields it does not know; takes sample_rate and stream_format', () => {
    const speech = request({ instructions: 'Speak like a pirate.', lang_code: 'h', volume_multiplier: 2, sample_rate: 8000, stream_format: 'sse' });
    expect(speech).toMatchObject({ synthesis: { sampleRateHz: 8000 }, streamFormat: 'sse' });
  });
});
