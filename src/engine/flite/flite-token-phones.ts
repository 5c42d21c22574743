// Each token's phones as flite says them on their own: the tokens not cached yet are spoken in one extra run,
// `;`-separated so flite pauses between them, with `-ps` and a tiny duration_stretch (only the phones matter, and
// synthesis time scales with duration). Cached per voice file and token, so repeated prompts need no extra run.

import { runFlite } from './flite-module.js';
import { parsePhoneGroups } from './flite-phones.js';
import { assertVoiceLoaded, type FliteVoiceFile } from './flite-voice.js';
import type { TextToken } from './flite-words.js';

// The analysis run's duration_stretch: 20x shorter than speech, measured 26 ms instead of 140 ms for 24 tokens.
const ANALYSIS_STRETCH = 0.05;

/** A bounded least-recently-used map of (voice file, token) to phones. */
export class TokenPhoneCache {
  private readonly entries = new Map<string, readonly string[]>();

  constructor(private readonly maxEntries = 8192) {}

  get size(): number {
    return this.entries.size;
  }

  get(voicePath: string, token: string): readonly string[] | undefined {
    const key = `${voicePath}\0${token}`;
    const phones = this.entries.get(key);
    if (phones !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, phones);
    }
    return phones;
  }

  set(voicePath: string, token: string, phones: readonly string[]): void {
    this.entries.set(`${voicePath}\0${token}`, phones);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** Token k's phones for each of `tokens`, or undefined when flite's analysis does not give one group per token. */
export function tokenPhones(voice: FliteVoiceFile, tokens: readonly TextToken[], cache: TokenPhoneCache): (readonly string[])[] | undefined {
  const found = new Map<string, readonly string[]>();
  for (const token of tokens) {
    const phones = cache.get(voice.path, token.text);
    if (phones !== undefined) found.set(token.text, phones);
  }
  const missing = [...new Set(tokens.map((token) => token.text))].filter((text) => !found.has(text));
  if (missing.length > 0) {
    const run = runFlite({
      args: ['-voice', voice.guestPath, '--setf', `duration_stretch=${ANALYSIS_STRETCH}`, '-ps', '-t', missing.join('; '), '-o', 'none'],
      voiceDir: voice.dir,
    });
    assertVoiceLoaded(voice, run.stderr);
    const groups = parsePhoneGroups(run.stdout);
    if (groups === undefined || groups.length !== missing.length) return undefined;
    missing.forEach((text, index) => {
      const phones = groups[index] as string[];
      cache.set(voice.path, text, phones);
      found.set(text, phones);
    });
  }
  return tokens.map((token) => found.get(token.text) as readonly string[]);
}
