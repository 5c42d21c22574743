import { describe, expect, it } from 'vitest';
import { isSsml, MAX_BREAK_MS, parseSsml } from '../../../../src/core/text/ssml.js';
import { checkText } from '../../../../src/core/text/text-limits.js';
import { ApiError } from '../../../../src/errors.js';
import { countCodePoints } from '../../../../src/util/code-points.js';

function problem(text: string): string {
  try {
    parseSsml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_error');
    return (error as ApiError).message;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe('SSML', () => {
  it('is detected only when the text starts with <speak', () => {
    expect(isSsml('<speak>hi</speak>')).toBe(true);
    expect(isSsml('  \n<speak version="1.1">hi</speak>')).toBe(true);
    expect(isSsml('say <speak>hi</speak>')).toBe(false);
    expect(isSsml('<speaker>')).toBe(false);
    expect(isSsml('a < b')).toBe(false);
  });

  it('keeps the text, its breaks and say-as spans, and weights that add up to the input', () => {
    const text = '<speak>Hi <say-as interpret-as="digits">42</say-as><break time="250ms"/>&lt;3 <!-- note --></speak>';
    const source = parseSsml(text);
    expect(source.chars.join('')).toBe('Hi 42 <3 ');
    expect([...source.breaksMs]).toEqual([[5, 250]]);
    expect(source.forced).toEqual([{ start: 3, end: 5, interpretAs: 'digits' }]);
    expect(source.weights.reduce((a, b) => a + b, 0)).toBe(countCodePoints(text));
  });

  it('maps break strengths and durations', () => {
    const ms = (tag: string) => [...parseSsml(`<speak>a${tag}b</speak>`).breaksMs.values()][0];
    expect(ms('<break/>')).toBe(400);
    expect(ms('<break strength="x-strong"/>')).toBe(1000);
    expect(ms('<break time="1.5s"/>')).toBe(1500);
    expect(ms('<break time="300ms"></break>')).toBe(300);
  });

  it.each([
    ['<speak>hello', '<speak> opened at character 0 is never closed'],
    ['<speak>a</speek>', '</speek> at character 8 does not close <speak>'],
    ['<speak><say-as>1</say-as></speak>', 'needs an interpret-as attribute'],
    ['<speak><say-as interpret-as="money">1</say-as></speak>', 'interpret-as="money"> at character 7 is not supported'],
    ['<speak><say-as interpret-as="date">hello</say-as></speak>', "contains 'hello', which is not a date"],
    ['<speak><say-as interpret-as="date" format="dym">1/2/2026</say-as></speak>', 'format="dym"'],
    ['<speak><say-as interpret-as="cardinal">12a</say-as></speak>', 'which is not a number'],
    ['<speak><say-as interpret-as="currency">lots</say-as></speak>', 'which is not an amount'],
    ['<speak><say-as interpret-as="digits"><break/>1</say-as></speak>', 'may contain only text'],
    ['<speak>a<break time="fast"/></speak>', 'is not a duration like 300ms'],
    ['<speak>a<break time="9s"/></speak>', `longer than the ${MAX_BREAK_MS} ms maximum`],
    ['<speak>a<break strength="huge"/></speak>', 'strength="huge"'],
    ['<speak>Tom & Jerry</speak>', "'&' at character 11 is not an entity"],
    ['<speak>a < b</speak>', 'is never closed with'],
    ['<speak>a</speak> trailing', 'text after </speak>'],
    ['<speak><speak>a</speak></speak>', 'is nested'],
    ['<speak><break time="1s"/></speak>', 'nothing to say'],
    ['<speak><sub>WHO</sub></speak>', 'needs an alias attribute'],
    ['<speak><say-as interpret-as="digits" x=1>1</say-as></speak>', 'attributes of <say-as> at character 7 are malformed'],
  ])('rejects %s', (text, expected) => {
    expect(problem(text)).toContain(expected);
  });

  it('is checked with the text rules, before anything is admitted or charged', () => {
    expect(checkText('<speak>ok <break time="200ms"/> fine</speak>')).toBe(44);
    expect(() => checkText('<speak>broken')).toThrow(/Invalid SSML in 'text'/u);
    expect(checkText('plain < text & more')).toBe(19);
  });
});

function refusal(text: string, strict: boolean): string {
  try {
    parseSsml(text, { strict });
  } catch (error) {
    expect((error as ApiError).code).toBe('validation_error');
    return (error as ApiError).message;
  }
  throw new Error(`parsed without error (strict ${strict}): ${text}`);
}

describe('SSML from other vendors: lenient and strict modes', () => {
  it('reads the XML declaration and the speak boilerplate of other vendors', () => {
    const text = '<?xml version="1.0" encoding="UTF-8"?>\n<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">Hi</speak>';
    expect(isSsml(text)).toBe(true);
    const source = parseSsml(text);
    expect(source.chars.join('')).toBe('Hi');
    // <speak xml:lang> is not a language span: the request's language rules.
    expect(source.voicings).toBeUndefined();
    expect(source.weights.reduce((a, b) => a + b, 0)).toBe(countCodePoints(text));
    expect(isSsml('<?xml version="1.0"?> hello')).toBe(false);
  });

  it('lenient (the default): an unknown element is dropped, its text spoken, and named once', () => {
    const text = '<speak><voice name="x"><mstts:express-as style="cheerful">Hello</mstts:express-as> <voice name="y">there</voice></voice></speak>';
    const source = parseSsml(text);
    expect(source.chars.join('')).toBe('Hello there');
    expect(source.ignored).toEqual(['voice', 'mstts:express-as']);
    expect(source.weights.reduce((a, b) => a + b, 0)).toBe(countCodePoints(text));
  });

  it('lenient: the content of metadata and desc is not spoken', () => {
    const source = parseSsml('<speak><metadata><dc:title>Not this</dc:title></metadata>Only this</speak>');
    expect(source.chars.join('')).toBe('Only this');
    expect(source.ignored).toEqual(['metadata', 'dc:title']);
  });

  it('strict: an unknown element is refused naming it, as SSML-lite always did', () => {
    expect(refusal('<speak>a <voice name="x">b</voice></speak>', true)).toMatch(/<voice> at character 9 is not supported \(supported: speak, say-as, break, sub, p, s, prosody, emphasis, lang, mark\)/u);
    expect(parseSsml('<speak>a <voice name="x">b</voice></speak>', { strict: false }).ignored).toEqual(['voice']);
  });

  it('<phoneme>: its text is spoken and it is reported (lenient) or refused (strict); its alphabet is checked in both', () => {
    const text = '<speak>a <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme></speak>';
    const source = parseSsml(text);
    expect(source.chars.join('')).toBe('a tomato');
    expect(source.ignored).toEqual(['phoneme']);
    expect(parseSsml('<speak><phoneme alphabet="x-sampa" ph="t@"/>a</speak>').chars.join('')).toBe('a');
    expect(refusal(text, true)).toMatch(/<phoneme> at character 9 is not supported: no engine here takes phonemes yet/u);
    for (const strict of [false, true]) {
      expect(refusal('<speak><phoneme alphabet="sapi" ph="x">a</phoneme></speak>', strict)).toMatch(/alphabet="sapi"> at character 7 is not one of ipa, x-sampa/u);
      expect(refusal('<speak><phoneme alphabet="ipa">a</phoneme></speak>', strict)).toMatch(/needs a ph attribute/u);
    }
    expect(refusal('<speak><phoneme ph="a"><break/>a</phoneme></speak>', false)).toMatch(/<break> at character 23 is inside <phoneme>, which may contain only text/u);
  });

  it('<audio> is refused in both modes, naming it', () => {
    for (const strict of [false, true]) {
      expect(refusal('<speak>Hi <audio src="https://example.com/a.mp3">bell</audio></speak>', strict)).toMatch(/<audio> at character 10 is not supported: Raaga fetches no audio/u);
    }
  });

  it('<lang>: one of the eight by its primary subtag; an unknown one is dropped (lenient) or refused (strict)', () => {
    const source = parseSsml('<speak>Hi <lang xml:lang="hi">नमस्ते</lang> <lang xml:lang="en-US">and</lang> <lang xml:lang="fr-FR">bonjour</lang></speak>');
    const languageOf = (char: string) => source.voicings?.[source.voicingAt?.[source.chars.indexOf(char)] ?? 0]?.language;
    expect(languageOf('न')).toBe('hi-IN');
    expect(languageOf('a')).toBe('en-IN');
    expect(languageOf('b')).toBeUndefined();
    expect(source.ignored).toEqual(['lang']);
    expect(refusal('<speak><lang xml:lang="fr-FR">bonjour</lang></speak>', true)).toMatch(/<lang xml:lang="fr-FR"> at character 7 is not one of the languages en-IN, hi-IN/u);
    expect(refusal('<speak><lang>x</lang></speak>', false)).toMatch(/<lang> at character 7 needs an xml:lang attribute/u);
    // <p> and <s> may carry a language too.
    const paragraph = parseSsml('<speak><p xml:lang="ta-IN">வணக்கம்</p></speak>');
    expect(paragraph.voicings?.[paragraph.voicingAt?.[0] ?? 0]?.language).toBe('ta-IN');
  });

  it('<mark>: a name and a place before the next character; it says nothing and must be empty', () => {
    const source = parseSsml('<speak><mark name="start"/>Hello <mark name="mid"></mark>world<mark name=" end "/></speak>');
    expect(source.chars.join('')).toBe('Hello world');
    expect(source.marks).toEqual([
      { name: 'start', index: 0 },
      { name: 'mid', index: 6 },
      { name: 'end', index: 11 },
    ]);
    expect(refusal('<speak><mark/>a</speak>', false)).toMatch(/<mark> at character 7 needs a name attribute/u);
    expect(refusal('<speak><mark name="m">a</mark></speak>', false)).toMatch(/<mark> at character 7 must be empty/u);
  });

  it('<prosody> and <emphasis>: each character remembers its voicing; nested ones combine', () => {
    const source = parseSsml('<speak>a<prosody rate="slow" volume="-6dB">b<emphasis level="strong">c</emphasis><prosody rate="+20%" pitch="+2st">d</prosody></prosody>e</speak>');
    const voicing = (index: number) => source.voicings?.[source.voicingAt?.[index] ?? 0];
    expect(voicing(0)).toEqual({ rate: 1, pitchSemitones: 0, gainDb: 0 });
    expect(voicing(1)).toEqual({ rate: 0.75, pitchSemitones: 0, gainDb: -6 });
    expect(voicing(2)).toEqual({ rate: 0.675, pitchSemitones: 0, gainDb: -3 });
    expect(voicing(3)).toEqual({ rate: 0.9, pitchSemitones: 2, gainDb: -6 });
    expect(voicing(4)).toEqual({ rate: 1, pitchSemitones: 0, gainDb: 0 });
    expect(refusal('<speak><emphasis level="loud">a</emphasis></speak>', false)).toMatch(/<emphasis level="loud"> at character 7 is not one of strong, moderate, reduced, none/u);
  });

  it('nesting: text-only elements stay text-only, and malformed markup is refused in both modes', () => {
    for (const strict of [false, true]) {
      expect(refusal('<speak><sub alias="x"><prosody rate="slow">a</prosody></sub></speak>', strict)).toMatch(/inside <sub>, which may contain only text/u);
      expect(refusal('<speak><prosody rate="slow">a</speak>', strict)).toMatch(/<\/speak> at character 29 does not close <prosody>/u);
      expect(refusal('<speak><foo>a</speak>', strict)).toMatch(strict ? /<foo> at character 7 is not supported/u : /does not close <foo>/u);
    }
  });

  it('is checked in the mode a request asks for', () => {
    const text = '<speak><emphasis>ok</emphasis> <foo>fine</foo></speak>';
    expect(checkText(text)).toBe(countCodePoints(text));
    expect(() => checkText(text, undefined, { strict: true })).toThrow(/<foo> at character 31 is not supported/u);
  });
});
