// Runs the text front end over every rule family in every language at start-up, before the server listens: its first
// passes in a process compile about a hundred regexes and the verbalizers and leave the chain matchers unoptimised
// (28-74 ms for a 3,000-character digit chain, measured), which would otherwise fall on the event loop of the first
// requests while calls are live.

import { LANGUAGE_CODES } from '../../languages.js';
import { splitUtterance } from './split-utterance.js';

/** Numbers, money, a date, a time, a phone number, an e-mail, a web address, a range, SSML: every rule family. */
const SAMPLE =
  '<speak>On 21/11/2026 at 10:30 AM, ₹12,500.50 (3.5%) was paid; call +91 98765 43210 or mail a.b@example.com, ' +
  'see www.example.in/help, pages 4-7, 1,25,000 units, OTP 482913, 2 + 3 = 5.<break time="200ms"/> Done.</speak>';

/** Digit and separator chains: the matchers that tenant text can make work hardest, compiled and optimised here. */
const CHAINS = `${'1-'.repeat(1000)} ${'₹1 '.repeat(200)} ${'12.'.repeat(100)}com`;
/** Passes over the samples: V8 optimises a function only after it has run hot a few times. */
const PASSES = 4;

export function warmUpTextFrontEnd(): void {
  for (let pass = 0; pass < PASSES; pass++) {
    for (const language of LANGUAGE_CODES) {
      splitUtterance(SAMPLE, { firstChunkMaxChars: 100, maxChunkChars: 300, language });
      splitUtterance(CHAINS, { firstChunkMaxChars: 100, maxChunkChars: 300, language });
    }
  }
}
