// Which eSpeak NG language voice speaks each of the eight service languages.
// The voice bank manifest carries the same mapping as data; this is the fallback when none is passed.

import type { LanguageCode } from '../../languages.js';

export const DEFAULT_ESPEAK_LANGUAGE_IDS: Readonly<Record<LanguageCode, string>> = {
  // eSpeak NG has no en-IN voice; its British English ('en') is the closest to Indian English prosody.
  'en-IN': 'en',
  'hi-IN': 'hi',
  'ta-IN': 'ta',
  'te-IN': 'te',
  'kn-IN': 'kn',
  'mr-IN': 'mr',
  'gu-IN': 'gu',
  'bn-IN': 'bn',
};
