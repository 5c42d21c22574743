// Makes clause text safe for eSpeak NG's input parser, which in this build always runs with SSML and
// `[[phoneme]]` input switched on (the Emscripten glue passes espeakSSML | espeakPHONEMES).

export interface EspeakInput {
  /** What eSpeak reads literally: markup characters escaped, phoneme brackets and C-string breakers removed. */
  readonly text: string;
  /** For each code point of `text`, the index of the code point of the original text it came from. */
  readonly sourceIndex: readonly number[];
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
// A NUL would end the C string early; other control characters only confuse the tokenizer.
const CONTROL = /^[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]$/u;

/** The text eSpeak reads, with a map back to the original: eSpeak's word events count code points of what it read. */
export function toEspeakInput(text: string): EspeakInput {
  const input = [...text];
  const out: string[] = [];
  const sourceIndex: number[] = [];
  const emit = (piece: string, from: number): void => {
    for (const char of piece) {
      out.push(char);
      sourceIndex.push(from);
    }
  };
  for (let i = 0; i < input.length; i++) {
    const char = input[i] as string;
    if (CONTROL.test(char)) emit(' ', i);
    else if ((char === '[' || char === ']') && input[i + 1] === char) {
      // `[[` opens raw phoneme input; a single bracket is ordinary punctuation.
      emit(char, i);
      while (input[i + 1] === char) i++;
    } else emit(ENTITIES[char] ?? char, i);
  }
  return { text: out.join(''), sourceIndex };
}
