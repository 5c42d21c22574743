// Which accent a Kokoro voice reads with: Kokoro's language letters and their eSpeak voices. Apart from the
// phonemizer so the engine module can name a pack's language without loading eSpeak in the main thread.

/** Kokoro's language letters: a = American English, b = British English, h = Hindi (the first letter of a voice). */
export type KokoroLanguage = 'a' | 'b' | 'h';

/** kokoro-js: 'a' → `en-us`, anything else → `en` (eSpeak's British English); Kokoro's pipeline: 'h' → `hi`. */
export const KOKORO_ESPEAK_VOICE: Readonly<Record<KokoroLanguage, string>> = { a: 'en-us', b: 'en', h: 'hi' };

/**
 * Each Kokoro voice learned one accent's phonemes, so the language follows the voice's first letter (as in kokoro-js
 * and Kokoro's KPipeline), not the request. en-IN defaults to British ('b', eSpeak `en`): Indian English is
 * non-rhotic with RP-like vowels, the reason the embedded eSpeak engine already reads en-IN with `en`.
 */
export function kokoroLanguageFor(language: 'en-IN' | 'hi-IN', voiceName: string): KokoroLanguage {
  const letter = voiceName[0];
  if (letter === 'a' || letter === 'b' || letter === 'h') return letter;
  return language === 'hi-IN' ? 'h' : 'b';
}
