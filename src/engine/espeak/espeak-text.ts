// Makes clause text safe for eSpeak NG's input parser, which in this build always runs with SSML and
// `[[phoneme]]` input switched on (the Emscripten glue passes espeakSSML | espeakPHONEMES).

/** Returns text eSpeak reads literally: markup characters escaped, phoneme brackets and C-string breakers removed. */
export function toEspeakPlainText(text: string): string {
  return (
    text
      // A NUL would end the C string early; other control characters only confuse the tokenizer.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
      // `[[` opens raw phoneme input; a single bracket is ordinary punctuation.
      .replace(/\[{2,}/g, '[')
      .replace(/\]{2,}/g, ']')
      // `&` first so the entities added next are not escaped twice.
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}
