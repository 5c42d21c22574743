// The CLI's file formats: --format wins, else the --out extension (the extensions' own names for A-law and Ogg/Opus
// included), else wav; an unknown --format is a usage error naming every format.
import { describe, expect, it } from 'vitest';
import { FILE_FORMATS, fileFormatFor } from '../../../src/cli/audio-file-format.js';
import { UsageError } from '../../../src/cli/usage-error.js';

describe('fileFormatFor', () => {
  it.each([
    ['out.wav', 'wav'],
    ['out.mp3', 'mp3'],
    ['out.raw', 'pcm'],
    ['out.ulaw', 'mulaw'],
    ['out.alaw', 'alaw'],
    ['out.AL', 'alaw'],
    ['note.opus', 'opus'],
    ['note.ogg', 'opus'],
    ['out.unknown', 'wav'],
  ])('%s is written as %s', (out, format) => {
    expect(fileFormatFor(out, undefined)).toBe(format);
  });

  it('--format wins over the extension, and must be one the API offers', () => {
    expect(fileFormatFor('note.ogg', 'alaw')).toBe('alaw');
    expect(FILE_FORMATS).toEqual(['wav', 'mp3', 'pcm', 'mulaw', 'alaw', 'opus']);
    expect(() => fileFormatFor('x.wav', 'flac')).toThrow(UsageError);
    expect(() => fileFormatFor('x.wav', 'flac')).toThrow('--format must be one of wav, mp3, pcm, mulaw, alaw, opus');
  });
});
