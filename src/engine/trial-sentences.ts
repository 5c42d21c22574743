// The sentence an installer has each new pack speak in its language before recording it: short, in the language's
// own script, with a number, so the pack's phonemizer and model are both exercised.

import type { LanguageCode } from '../languages.js';

export const TRIAL_SENTENCES: Readonly<Record<LanguageCode, string>> = {
  'en-IN': 'Your order will arrive tomorrow by six in the evening.',
  'hi-IN': 'आपका ऑर्डर कल शाम छह बजे तक पहुँच जाएगा।',
  'ta-IN': 'உங்கள் ஆர்டர் நாளை மாலை ஆறு மணிக்குள் வந்து சேரும்.',
  'te-IN': 'మీ ఆర్డర్ రేపు సాయంత్రం ఆరు గంటలకు చేరుతుంది.',
  'kn-IN': 'ನಿಮ್ಮ ಆರ್ಡರ್ ನಾಳೆ ಸಂಜೆ ಆರು ಗಂಟೆಗೆ ತಲುಪುತ್ತದೆ.',
  'mr-IN': 'तुमची ऑर्डर उद्या संध्याकाळी सहा वाजेपर्यंत पोहोचेल.',
  'gu-IN': 'તમારો ઓર્ડર કાલે સાંજે છ વાગ્યા સુધીમાં પહોંચી જશે.',
  'bn-IN': 'আপনার অর্ডার আগামীকাল সন্ধ্যা ছটার মধ্যে পৌঁছে যাবে।',
};
