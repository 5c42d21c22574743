// What a live call hears when the server's call drain limit ends it (a deploy that could not wait longer): one short
// apology per language, so the caller is not cut off mid-sentence in silence.

import type { LanguageCode } from '../languages.js';

export const SHUTDOWN_CLOSING_LINES: Readonly<Record<LanguageCode, string>> = {
  'en-IN': 'Sorry, we have to end this call now. Please call again.',
  'hi-IN': 'क्षमा करें, हमें यह कॉल अभी समाप्त करनी होगी। कृपया दोबारा कॉल करें।',
  'mr-IN': 'माफ करा, आम्हाला हा कॉल आता संपवावा लागेल. कृपया पुन्हा कॉल करा.',
  'gu-IN': 'માફ કરશો, અમારે આ કૉલ હવે પૂરો કરવો પડશે. કૃપા કરીને ફરી કૉલ કરો.',
  'bn-IN': 'দুঃখিত, আমাদের এখন এই কলটি শেষ করতে হবে। অনুগ্রহ করে আবার কল করুন।',
  'ta-IN': 'மன்னிக்கவும், இந்த அழைப்பை இப்போது முடிக்க வேண்டும். தயவுசெய்து மீண்டும் அழைக்கவும்.',
  'te-IN': 'క్షమించండి, ఈ కాల్‌ను ఇప్పుడు ముగించాలి. దయచేసి మళ్లీ కాల్ చేయండి.',
  'kn-IN': 'ಕ್ಷಮಿಸಿ, ಈ ಕರೆಯನ್ನು ಈಗ ಮುಗಿಸಬೇಕಾಗಿದೆ. ದಯವಿಟ್ಟು ಮತ್ತೆ ಕರೆ ಮಾಡಿ.',
};
