// What a caller says over the bot in the barge-in corpora, per language: short commands that must cut it and fillers
// (backchannels) that must not. Shared by bench/barge-in-policies.ts and bench/vad-hunt.ts.

import type { LanguageCode } from '../../src/languages.js';

export const COMMANDS: Record<LanguageCode, readonly string[]> = {
  'hi-IN': ['रुको', 'नहीं', 'एक मिनट'],
  'en-IN': ['stop', 'wait', 'no no'],
  'ta-IN': ['நில்லுங்க', 'வேண்டாம்'],
  'te-IN': ['ఆగండి', 'వద్దు'],
  'kn-IN': ['ನಿಲ್ಲಿ', 'ಬೇಡ'],
  'mr-IN': ['थांबा', 'नको'],
  'gu-IN': ['થોભો', 'ના'],
  'bn-IN': ['থামুন', 'না'],
};
export const FILLERS: Record<LanguageCode, readonly string[]> = {
  'hi-IN': ['हाँ', 'हाँ जी', 'अच्छा', 'हम्म'],
  'en-IN': ['ok', 'hmm', 'right', 'uh-huh'],
  'ta-IN': ['ம்ம்', 'சரி', 'ஆமா'],
  'te-IN': ['ఆ', 'సరే', 'అవును'],
  'kn-IN': ['ಹೂಂ', 'ಸರಿ', 'ಹೌದು'],
  'mr-IN': ['हो', 'बरं', 'हं'],
  'gu-IN': ['હા', 'હં', 'બરાબર'],
  'bn-IN': ['হ্যাঁ', 'আচ্ছা', 'হুঁ'],
};
