// Kokoro's English text normalisation, ported rule for rule from kokoro-js 1.2.1 (`normalize_text` in
// src/phonemize.js, Apache-2.0, hexgrad/kokoro): quotes and brackets, titles, years, clock times, $/£ amounts, decimals.
// Raaga's own front end verbalises numbers first, so here most rules find nothing; they stay for exact parity.

/** `1990` → `19 90`, `2005` → `2005`, `1900s` → `19 hundreds`, `12:05` → `12 oh 5`; decimals pass through. */
function splitNumber(match: string): string {
  if (match.includes('.')) return match;
  if (match.includes(':')) {
    const [hours, minutes] = match.split(':').map(Number);
    if (minutes === 0) return `${hours} o'clock`;
    if (minutes !== undefined && minutes < 10) return `${hours} oh ${minutes}`;
    return `${hours} ${minutes}`;
  }
  const year = parseInt(match.slice(0, 4), 10);
  if (year < 1100 || year % 1000 < 10) return match;
  const left = match.slice(0, 2);
  const right = parseInt(match.slice(2, 4), 10);
  const suffix = match.endsWith('s') ? 's' : '';
  if (year % 1000 >= 100 && year % 1000 <= 999) {
    if (right === 0) return `${left} hundred${suffix}`;
    if (right < 10) return `${left} oh ${right}${suffix}`;
  }
  return `${left} ${right}${suffix}`;
}

/** `$5.50` → `5 dollars and 50 cents`, `£1` → `1 pound`. */
function flipMoney(match: string): string {
  const bill = match[0] === '$' ? 'dollar' : 'pound';
  const amount = match.slice(1);
  if (isNaN(Number(amount))) return `${amount} ${bill}s`;
  if (!match.includes('.')) return `${amount} ${bill}${amount === '1' ? '' : 's'}`;
  const [whole = '', fraction = ''] = amount.split('.');
  const coins = parseInt(fraction.padEnd(2, '0'), 10);
  const coinName = match[0] === '$' ? (coins === 1 ? 'cent' : 'cents') : coins === 1 ? 'penny' : 'pence';
  return `${whole} ${bill}${whole === '1' ? '' : 's'} and ${coins} ${coinName}`;
}

/** `12.34` → `12 point 3 4`. */
function pointNumber(match: string): string {
  const [whole = '', fraction = ''] = match.split('.');
  return `${whole} point ${fraction.split('').join(' ')}`;
}

export function normalizeKokoroText(text: string): string {
  return (
    text
      .replace(/[‘’]/g, "'")
      .replace(/«/g, '“')
      .replace(/»/g, '”')
      .replace(/[“”]/g, '"')
      // Brackets become guillemets: punctuation to the splitter, and (not in the vocabulary) silent to the model.
      .replace(/\(/g, '«')
      .replace(/\)/g, '»')
      .replace(/、/g, ', ')
      .replace(/。/g, '. ')
      .replace(/！/g, '! ')
      .replace(/，/g, ', ')
      .replace(/：/g, ': ')
      .replace(/；/g, '; ')
      .replace(/？/g, '? ')
      .replace(/[^\S \n]/g, ' ')
      // Not global in kokoro-js either: only the first run of spaces collapses (eSpeak ignores the rest).
      .replace(/  +/, ' ')
      .replace(/(?<=\n) +(?=\n)/g, '')
      .replace(/\bD[Rr]\.(?= [A-Z])/g, 'Doctor')
      .replace(/\b(?:Mr\.|MR\.(?= [A-Z]))/g, 'Mister')
      .replace(/\b(?:Ms\.|MS\.(?= [A-Z]))/g, 'Miss')
      .replace(/\b(?:Mrs\.|MRS\.(?= [A-Z]))/g, 'Mrs')
      .replace(/\betc\.(?! [A-Z])/gi, 'etc')
      .replace(/\b(y)eah?\b/gi, "$1e'a")
      .replace(/\d*\.\d+|\b\d{4}s?\b|(?<!:)\b(?:[1-9]|1[0-2]):[0-5]\d\b(?!:)/g, splitNumber)
      .replace(/(?<=\d),(?=\d)/g, '')
      .replace(/[$£]\d+(?:\.\d+)?(?: hundred| thousand| (?:[bm]|tr)illion)*\b|[$£]\d+\.\d\d?\b/gi, flipMoney)
      .replace(/\d*\.\d+/g, pointNumber)
      .replace(/(?<=\d)-(?=\d)/g, ' to ')
      .replace(/(?<=\d)S/g, ' S')
      .replace(/(?<=[BCDFGHJ-NP-TV-Z])'?s\b/g, "'S")
      .replace(/(?<=X')S\b/g, 's')
      .replace(/(?:[A-Za-z]\.){2,} [a-z]/g, (m) => m.replace(/\./g, '-'))
      .replace(/(?<=[A-Z])\.(?=[A-Z])/gi, '-')
      .trim()
  );
}
