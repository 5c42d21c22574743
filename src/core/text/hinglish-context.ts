// Which sentences of an en-IN text are romanized Hindi (Hinglish): there numbers, money, times and dates are read
// as a Hinglish speaker says them (`500 rupaye` → `paanch sau rupaye`, `6 baje` → `chhah baje`), in English
// sentences as English. A sentence is Hinglish when it holds one word no English sentence uses (`hai`, `mein`,
// `baje`, `aapka`, …) or two of the short function words (`ko`, `se`, `ka`, `ki`, `ke`, `tak`, `aur`, …).

/** Words that alone mark a sentence as Hinglish: Hindi verbs, postpositions and nouns with no English homograph. */
const STRONG = new Set([
  'hai', 'hain', 'hoga', 'hogi', 'honge', 'tha', 'thi', 'mein', 'baje', 'bajkar', 'bajke', 'rupaye', 'rupaiye', 'rupay',
  'aapka', 'aapki', 'aapke', 'aapko', 'apna', 'apni', 'apne', 'kripya', 'kijiye', 'karein', 'karen', 'kare', 'karna', 'karke',
  'nahi', 'nahin', 'kya', 'kyun', 'kab', 'kahan', 'kitna', 'kitne', 'kitni', 'aaj', 'parso', 'wala', 'wali', 'wale',
  'dijiye', 'bhejein', 'bheja', 'milega', 'milegi', 'jayega', 'jayegi', 'liye', 'sirf',
  'yeh', 'woh', 'tum', 'mera', 'meri', 'mere', 'tak', 'saal', 'mahine', 'ghante', 'aap', 'hua', 'hui', 'hue', 'gaye',
  'lagega', 'lagegi', 'lagenge', 'aayega', 'aayegi', 'aayenge', 'sakte', 'sakta', 'sakti', 'chahiye', 'rahega', 'rahegi',
]);
/**
 * Hindi words too short or too close to English or to names and places to trust alone (`ko`, `Kal`, `Gaya`, `Abhi`): two make a
 * sentence Hinglish. English words that are also Hindi (`to`, `par`, `the`, `ya`) are not counted at all.
 */
const WEAK = new Set(['ko', 'se', 'ka', 'ki', 'ke', 'aur', 'pe', 'bhi', 'toh', 'jo', 'kal', 'din', 'hum', 'ye', 'wo', 'abhi', 'gaya', 'gayi', 'raha', 'rahi', 'rahe']);

export function isHinglishSentence(sentence: string): boolean {
  let strong = 0;
  let weak = 0;
  for (const word of sentence.toLowerCase().match(/[a-z]+/gu) ?? []) {
    if (STRONG.has(word)) {
      strong++;
    } else if (WEAK.has(word)) {
      weak++;
    }
  }
  return strong >= 1 || weak >= 2;
}
