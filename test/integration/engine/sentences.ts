// One short customer-service sentence per language, shared by the engine tests.

import type { LanguageCode } from '../../../src/languages.js';

export const SENTENCES: Readonly<Record<LanguageCode, string>> = {
  'en-IN': 'Hello, your order will arrive tomorrow morning.',
  'hi-IN': 'नमस्ते, आपका ऑर्डर कल सुबह पहुँचेगा।',
  'ta-IN': 'வணக்கம், உங்கள் ஆர்டர் நாளை காலை வரும்.',
  'te-IN': 'నమస్కారం, మీ ఆర్డర్ రేపు ఉదయం వస్తుంది.',
  'kn-IN': 'ನಮಸ್ಕಾರ, ನಿಮ್ಮ ಆರ್ಡರ್ ನಾಳೆ ಬೆಳಿಗ್ಗೆ ಬರುತ್ತದೆ.',
  'mr-IN': 'नमस्कार, तुमची ऑर्डर उद्या सकाळी येईल.',
  'gu-IN': 'નમસ્તે, તમારો ઓર્ડર કાલે સવારે આવશે.',
  'bn-IN': 'নমস্কার, আপনার অর্ডার আগামীকাল সকালে আসবে।',
};

/** About ten seconds of Hindi speech: long enough that a job is still running when a test acts on it. */
export const LONG_HINDI = Array.from({ length: 4 }, () => 'आपका ऑर्डर कल सुबह दस बजे तक पहुँच जाएगा, कृपया घर पर रहें।').join(' ');
