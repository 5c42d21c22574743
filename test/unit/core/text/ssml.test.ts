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

describe('SSML-lite', () => {
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
    ['<speak>a <emphasis>b</emphasis></speak>', '<emphasis> at character 9 is not supported'],
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
