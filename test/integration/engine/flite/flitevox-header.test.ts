// What a real .flitevox (flite's own dump of its built-in voices) declares, and the files an installer must refuse:
// a missing file, an HTML page, a truncated download at any point, random bytes, another language.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFlitevoxFeatures } from '../../../../fixtures/voices/lib/flite-voices.js';
import { FliteVoiceError } from '../../../../src/engine/flite/flite-voice-error.js';
import { parseFlitevoxHeader, readFlitevoxHeader } from '../../../../src/engine/flite/flitevox-header.js';
import { useFliteVoices } from '../../../helpers/flite-voices.js';

const voices = useFliteVoices(['slt', 'rms']);

function refusal(action: () => unknown): FliteVoiceError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(FliteVoiceError);
    return error as FliteVoiceError;
  }
  throw new Error('the file was accepted');
}

describe('readFlitevoxHeader', () => {
  it('reads a dumped voice: language, name, rate, F0, and a body walked to its last byte', () => {
    const header = readFlitevoxHeader(voices.path('slt'));
    expect(header).toMatchObject({
      byteOrder: 'little-endian',
      fliteLanguage: 'eng',
      spokenLanguage: 'eng',
      language: 'en-IN',
      voiceName: 'cmu_us_slt',
      sampleRateHz: 16000,
      spamF0: false,
      trailingBytes: 0,
    });
    expect(header.features).toMatchObject({ language: 'eng', country: 'USA', variant: 'none' });
    expect(header.f0MeanHz).toBeGreaterThan(120);
    expect(header.sizeBytes).toBeGreaterThan(2_000_000);
  });

  it('tells a voice whose F0 comes from the SPAM model (rms ignores the F0 target)', () => {
    expect(readFlitevoxHeader(voices.path('rms'))).toMatchObject({ voiceName: 'cmu_us_rms', spamF0: true, trailingBytes: 0 });
  });

  it('reads the language an Indic voice declares through its variant, or its name', () => {
    const bytes = readFileSync(voices.path('slt'));
    const hindi = parseFlitevoxHeader(withFlitevoxFeatures(bytes, { language: 'cmu_indic_lang', variant: 'hin' }), 'hin.flitevox');
    expect(hindi).toMatchObject({ fliteLanguage: 'cmu_indic_lang', spokenLanguage: 'hin', language: 'hi-IN' });
    const tamil = parseFlitevoxHeader(withFlitevoxFeatures(bytes, { language: 'cmu_indic_lang', variant: 'tam' }), 'tam.flitevox');
    expect(tamil.language).toBe('ta-IN');
    const punjabi = parseFlitevoxHeader(withFlitevoxFeatures(bytes, { language: 'cmu_indic_lang', variant: 'pan' }), 'pan.flitevox');
    expect(punjabi).toMatchObject({ spokenLanguage: 'pan', language: undefined });
  });

  it('refuses a missing file, naming it', () => {
    const path = join(voices.dir, 'nope.flitevox');
    expect(refusal(() => readFlitevoxHeader(path)).message).toBe(`flite voice ${path} does not exist`);
  });

  it('refuses an HTML page, an empty file and random bytes, naming the file', () => {
    const html = join(voices.dir, 'page.flitevox');
    writeFileSync(html, '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>gone</body></html>');
    expect(refusal(() => readFlitevoxHeader(html)).message).toMatch(new RegExp(`^flite voice ${html} is an HTML or XML page`));
    expect(refusal(() => parseFlitevoxHeader(new Uint8Array(0), 'empty.flitevox')).message).toBe('flite voice empty.flitevox is empty');
    const noise = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251);
    expect(refusal(() => parseFlitevoxHeader(noise, 'noise.flitevox')).message).toMatch(/^flite voice noise.flitevox is not a \.flitevox voice/);
  });

  it('refuses the file cut anywhere: in the magic, the features, the trees or the last field', () => {
    const bytes = readFileSync(voices.path('slt'));
    for (const length of [10, 30, 300, 5_000, 1_000_000, bytes.length - 1]) {
      const error = refusal(() => parseFlitevoxHeader(bytes.subarray(0, length), `cut-${length}.flitevox`));
      expect(error.message).toMatch(new RegExp(`^flite voice cut-${length}.flitevox is truncated`));
      expect(error.path).toBe(`cut-${length}.flitevox`);
    }
  });

  it('refuses a corrupt byte order mark', () => {
    const bytes = Uint8Array.from(readFileSync(voices.path('slt')));
    bytes[26] = 7;
    expect(refusal(() => parseFlitevoxHeader(bytes, 'bom.flitevox')).message).toMatch(/byte order mark 7/);
  });
});
