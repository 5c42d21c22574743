// SSML-lite: a text whose first non-blank characters are `<speak` is markup; anything else is plain text, so
// a `<` in ordinary text is never taken for a tag. Supports <speak>, <say-as>, <break>, <sub>, <p>, <s>;
// anything else, and any malformed markup, is a `validation_error` that names the problem and where it is.

import { ApiError } from '../../errors.js';
import { DATE_FORMATS, parseDate, parseMoney, parseNumber, parseTime, type DateFormat } from './parse-forms.js';
import { ALL_MONTH_NAMES } from './languages/index.js';
import type { ForcedSpan, InterpretAs, SourceText } from './source-text.js';

export const MAX_BREAK_MS = 5000;
const INTERPRET_AS: Readonly<Record<string, InterpretAs>> = {
  digits: 'digits', characters: 'characters', 'spell-out': 'characters', cardinal: 'cardinal', number: 'cardinal',
  ordinal: 'ordinal', telephone: 'telephone', date: 'date', time: 'time', currency: 'currency',
};
// Silence per break strength (no attributes = medium), in line with the common cloud TTS defaults.
const BREAK_STRENGTH_MS: Readonly<Record<string, number>> = { none: 0, 'x-weak': 100, weak: 250, medium: 400, strong: 700, 'x-strong': 1000 };
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const SUPPORTED = 'speak, say-as, break, sub, p, s';

export function isSsml(text: string): boolean {
  return /^\s*<speak(?=[\s>/])/u.test(text);
}

function invalid(problem: string): ApiError {
  return new ApiError('validation_error', `Invalid SSML in 'text': ${problem}.`);
}

interface OpenElement {
  readonly name: string;
  readonly start: number;
  readonly attributes: ReadonlyMap<string, string>;
}

function parseAttributes(body: string, tag: string, at: number): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/gy;
  let index = 0;
  while (index < body.length) {
    while (/\s/u.test(body[index] ?? '')) index++;
    if (index >= body.length) break;
    pattern.lastIndex = index;
    const match = pattern.exec(body);
    if (!match) throw invalid(`the attributes of <${tag}> at character ${at} are malformed (write name="value")`);
    attributes.set(match[1] as string, decodeEntities(match[2] ?? match[3] ?? '', at));
    index = pattern.lastIndex;
  }
  return attributes;
}

function decodeEntities(text: string, at: number): string {
  return text.replace(/&([^;\s&]*);?/gu, (whole, name: string) => {
    const decoded = entityValue(name);
    if (decoded === undefined || !whole.endsWith(';')) throw invalid(`'${whole}' near character ${at} is not an entity (write &amp; for &)`);
    return decoded;
  });
}

function entityValue(name: string): string | undefined {
  if (ENTITIES[name] !== undefined) return ENTITIES[name];
  const code = /^#x[0-9a-f]+$/iu.test(name) ? parseInt(name.slice(2), 16) : /^#\d+$/u.test(name) ? Number(name.slice(1)) : NaN;
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined;
}

function breakMs(attributes: ReadonlyMap<string, string>, at: number): number {
  const time = attributes.get('time');
  if (time !== undefined) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/u.exec(time);
    if (!match) throw invalid(`<break time="${time}"> at character ${at} is not a duration like 300ms or 1.5s`);
    const ms = Number(match[1]) * (match[2] === 's' ? 1000 : 1);
    if (ms > MAX_BREAK_MS) throw invalid(`<break time="${time}"> at character ${at} is longer than the ${MAX_BREAK_MS} ms maximum`);
    return Math.round(ms);
  }
  const strength = attributes.get('strength') ?? 'medium';
  const ms = BREAK_STRENGTH_MS[strength];
  if (ms === undefined) throw invalid(`<break strength="${strength}"> at character ${at} is not one of ${Object.keys(BREAK_STRENGTH_MS).join(', ')}`);
  return ms;
}

/** Checks that a say-as content can be read as asked, so a typo fails the request instead of being misread. */
function checkSayAs(kind: InterpretAs, format: string | undefined, content: string, at: number): void {
  const fail = (expected: string): never => {
    throw invalid(`<say-as interpret-as="${kind}"> at character ${at} contains '${content}', which is not ${expected}`);
  };
  if (content.trim() === '') throw invalid(`<say-as> at character ${at} is empty`);
  if (kind === 'date') {
    if (format !== undefined && !(DATE_FORMATS as readonly string[]).includes(format)) {
      throw invalid(`<say-as format="${format}"> at character ${at} is not one of ${DATE_FORMATS.join(', ')}`);
    }
    if (!parseDate(content, (format ?? 'dmy') as DateFormat, ALL_MONTH_NAMES)) fail(`a date in the order ${format ?? 'dmy'} (like 21/11/2026)`);
  } else if (kind === 'cardinal' && !parseNumber(content)) fail('a number');
  else if (kind === 'ordinal' && !/^\s*\d+\s*$/u.test(content)) fail('a whole number');
  else if (kind === 'time' && !parseTime(content)) fail('a time like 10:30, 10:30 AM or 5 PM');
  else if (kind === 'currency' && !parseMoney(content)) fail('an amount like ₹1,250.50, Rs. 500 or INR 2 lakh');
  else if ((kind === 'digits' || kind === 'telephone') && !/\d/u.test(content)) fail('a digit string');
}

/** Parses SSML-lite into the text to read, with forced spans and breaks; throws `validation_error` when malformed. */
export function parseSsml(text: string): SourceText {
  const input = [...text];
  const chars: string[] = [];
  const weights: number[] = [];
  const breaksMs = new Map<number, number>();
  const forced: ForcedSpan[] = [];
  const stack: OpenElement[] = [];
  let pending = 0; // input code points (markup) not yet attached to a character
  let rootClosed = false;
  const emit = (char: string, weight: number): void => {
    chars.push(char);
    weights.push(weight + pending);
    pending = 0;
  };
  const top = (): OpenElement | undefined => stack[stack.length - 1];

  let p = 0;
  while (p < input.length) {
    const ch = input[p] as string;
    if (ch === '<') {
      const end = tagEnd(input, p);
      const tag = input.slice(p, end).join('');
      const weight = end - p;
      if (tag.startsWith('<!--')) {
        pending += weight;
        p = end;
        continue;
      }
      const match = /^<(\/?)([A-Za-z][\w:.-]*)([^]*?)(\/?)>$/u.exec(tag);
      if (!match) throw invalid(`'${tag.slice(0, 40)}' at character ${p} is not a tag`);
      const [, closing, name = '', body = '', selfClosing] = match;
      if (rootClosed) throw invalid(`<${name}> at character ${p} comes after </speak>`);
      if (closing) {
        if (body.trim() !== '') throw invalid(`</${name}> at character ${p} has attributes`);
        const open = stack.pop();
        if (!open) throw invalid(`</${name}> at character ${p} closes nothing`);
        if (open.name !== name) throw invalid(`</${name}> at character ${p} does not close <${open.name}> (opened at character ${open.start})`);
        pending += weight;
        closeElement(open, chars, forced);
        if (name === 'speak') rootClosed = true;
        // A paragraph or sentence end is a sentence boundary: a newline the splitter cuts at.
        if (name === 'p' || name === 's') emit('\n', 0);
      } else {
        if (stack.length === 0 && name !== 'speak') throw invalid(`the text must start with <speak>, not <${name}>`);
        if (stack.length > 0 && name === 'speak') throw invalid(`<speak> at character ${p} is nested inside <${top()?.name}>`);
        const parent = top();
        if (parent && (parent.name === 'say-as' || parent.name === 'sub')) {
          throw invalid(`<${name}> at character ${p} is inside <${parent.name}>, which may contain only text`);
        }
        const attributes = parseAttributes(body, name, p);
        if (name === 'break') {
          pending += weight;
          breaksMs.set(chars.length, breakMs(attributes, p));
          emit(' ', 0);
          if (!selfClosing) stack.push({ name, start: p, attributes });
        } else {
          if (!['speak', 'say-as', 'sub', 'p', 's'].includes(name)) throw invalid(`<${name}> at character ${p} is not supported (supported: ${SUPPORTED})`);
          if (name === 'say-as') {
            const kind = attributes.get('interpret-as');
            if (kind === undefined) throw invalid(`<say-as> at character ${p} needs an interpret-as attribute`);
            if (INTERPRET_AS[kind] === undefined) throw invalid(`<say-as interpret-as="${kind}"> at character ${p} is not supported (use ${Object.keys(INTERPRET_AS).join(', ')})`);
          }
          if (name === 'sub' && attributes.get('alias') === undefined) throw invalid(`<sub> at character ${p} needs an alias attribute`);
          pending += weight;
          if (selfClosing) {
            if (name === 'say-as' || name === 'sub') throw invalid(`<${name}/> at character ${p} is empty`);
          } else stack.push({ name, start: p, attributes: new Map([...attributes, ['@index', String(chars.length)]]) });
        }
      }
      p = end;
      continue;
    }
    if (stack.length === 0) {
      if (!/\s/u.test(ch)) throw invalid(rootClosed ? `text after </speak> at character ${p}` : 'the text must start with <speak>');
      pending += 1;
      p++;
      continue;
    }
    if (top()?.name === 'break') throw invalid(`<break> at character ${top()?.start} must be empty (write <break time="300ms"/>)`);
    if (ch === '&') {
      const semicolon = input.indexOf(';', p);
      const name = semicolon > p && semicolon - p <= 12 ? input.slice(p + 1, semicolon).join('') : undefined;
      const decoded = name === undefined ? undefined : entityValue(name);
      if (decoded === undefined) throw invalid(`'&' at character ${p} is not an entity (write &amp; for &)`);
      emit(decoded, semicolon + 1 - p);
      p = semicolon + 1;
      continue;
    }
    emit(ch, 1);
    p++;
  }
  const open = top();
  if (open) throw invalid(`<${open.name}> opened at character ${open.start} is never closed`);
  if (!chars.some((char) => /[\p{L}\p{N}]/u.test(char))) throw invalid('it has nothing to say');
  weights[weights.length - 1] = (weights[weights.length - 1] as number) + pending;
  return { chars, weights, breaksMs, forced };
}

/** Index just past the `>` that ends the tag opening at `start` (quotes may contain `>`). */
function tagEnd(input: readonly string[], start: number): number {
  if (input.slice(start, start + 4).join('') === '<!--') {
    for (let i = start + 4; i + 2 < input.length; i++) if (input[i] === '-' && input[i + 1] === '-' && input[i + 2] === '>') return i + 3;
    throw invalid(`the comment at character ${start} is never closed`);
  }
  let quote: string | undefined;
  for (let i = start + 1; i < input.length; i++) {
    const ch = input[i];
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '<') break;
    else if (ch === '>') return i + 1;
  }
  throw invalid(`the tag at character ${start} is never closed with '>' (write &lt; for a literal <)`);
}

function closeElement(open: OpenElement, chars: readonly string[], forced: ForcedSpan[]): void {
  if (open.name !== 'say-as' && open.name !== 'sub') return;
  const start = Number(open.attributes.get('@index'));
  const content = chars.slice(start).join('');
  if (open.name === 'sub') {
    if (content.trim() === '') throw invalid(`<sub> at character ${open.start} is empty`);
    forced.push({ start, end: chars.length, interpretAs: 'alias', alias: open.attributes.get('alias') as string });
    return;
  }
  const kind = INTERPRET_AS[open.attributes.get('interpret-as') as string] as InterpretAs;
  const format = open.attributes.get('format');
  checkSayAs(kind, format, content, open.start);
  forced.push({ start, end: chars.length, interpretAs: kind, ...(format !== undefined ? { format } : {}) });
}
