// SSML: a text whose first non-blank characters are `<speak` (after an optional `<?xml …?>` declaration) is markup;
// anything else is plain text, so a `<` in ordinary text is never taken for a tag. Read here: <speak>, <say-as>,
// <break>, <sub>, <p>, <s>, <prosody>, <emphasis>, <lang>, <mark>; <phoneme> is checked and its text spoken (no engine
// takes phonemes yet); <audio> is refused (Raaga fetches nothing). Any other element is, in the lenient mode (the
// default), dropped with its text spoken and named in `ignored`; in the strict mode refused. Malformed markup is a
// `validation_error` that names the problem and where it is, in both modes.

import { DATE_FORMATS, parseDate, parseMoney, parseNumber, parseTime, type DateFormat } from './parse-forms.js';
import { ALL_MONTH_NAMES } from './languages/index.js';
import type { ForcedSpan, InterpretAs, SourceMark, SourceText } from './source-text.js';
import { invalidSsml as invalid } from './ssml-error.js';
import { ssmlLanguage } from './ssml-language.js';
import { emphasisChange, prosodyChange } from './ssml-prosody.js';
import { NEUTRAL_VOICING, voicingKey, type Voicing } from './voicing.js';
import { LANGUAGE_CODES } from '../../languages.js';

export const MAX_BREAK_MS = 5000;
const INTERPRET_AS: Readonly<Record<string, InterpretAs>> = {
  digits: 'digits', characters: 'characters', 'spell-out': 'characters', cardinal: 'cardinal', number: 'cardinal',
  ordinal: 'ordinal', telephone: 'telephone', date: 'date', time: 'time', currency: 'currency',
};
// Silence per break strength (no attributes = medium), in line with the common cloud TTS defaults.
const BREAK_STRENGTH_MS: Readonly<Record<string, number>> = { none: 0, 'x-weak': 100, weak: 250, medium: 400, strong: 700, 'x-strong': 1000 };
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const SUPPORTED = ['speak', 'say-as', 'break', 'sub', 'p', 's', 'prosody', 'emphasis', 'lang', 'mark', 'phoneme'];
/** Elements whose content is only text (and the elements that must be empty). */
const TEXT_ONLY = new Set(['say-as', 'sub', 'phoneme']);
/** Unknown elements whose content is not speech: in the lenient mode it is dropped with the tag, never spoken. */
const NOT_SPOKEN = new Set(['metadata', 'meta', 'desc', 'lexicon']);
/** What the alphabet of a <phoneme> may be (checked even though no engine reads phonemes yet). */
export const PHONEME_ALPHABETS = ['ipa', 'x-sampa'];

export interface SsmlOptions {
  /** Refuse elements Raaga does not apply (today's SSML-lite rule) instead of dropping them and saying so. */
  readonly strict?: boolean;
}

export function isSsml(text: string): boolean {
  return /^\s*(?:<\?xml\s[^>]*\?>\s*)?<speak(?=[\s>/])/u.test(text);
}

interface OpenElement {
  readonly name: string;
  readonly start: number;
  readonly attributes: ReadonlyMap<string, string>;
  /** Index into the voicings of how its content is spoken. */
  readonly voicing: number;
  /** Characters before its content (say-as and sub spans start here). */
  readonly index: number;
  /** Its content is dropped, not spoken. */
  readonly silent: boolean;
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

/** The checks of an element's own attributes that hold in both modes (what it must carry to mean anything). */
function checkAttributes(name: string, attributes: ReadonlyMap<string, string>, at: number): void {
  if (name === 'say-as') {
    const kind = attributes.get('interpret-as');
    if (kind === undefined) throw invalid(`<say-as> at character ${at} needs an interpret-as attribute`);
    if (INTERPRET_AS[kind] === undefined) throw invalid(`<say-as interpret-as="${kind}"> at character ${at} is not supported (use ${Object.keys(INTERPRET_AS).join(', ')})`);
  } else if (name === 'sub' && attributes.get('alias') === undefined) throw invalid(`<sub> at character ${at} needs an alias attribute`);
  else if (name === 'lang' && attributes.get('xml:lang') === undefined) throw invalid(`<lang> at character ${at} needs an xml:lang attribute (like xml:lang="hi-IN")`);
  else if (name === 'mark' && (attributes.get('name') ?? '').trim() === '') throw invalid(`<mark> at character ${at} needs a name attribute`);
  else if (name === 'phoneme') {
    const alphabet = attributes.get('alphabet');
    if (alphabet !== undefined && !PHONEME_ALPHABETS.includes(alphabet)) {
      throw invalid(`<phoneme alphabet="${alphabet}"> at character ${at} is not one of ${PHONEME_ALPHABETS.join(', ')}`);
    }
    if ((attributes.get('ph') ?? '').trim() === '') throw invalid(`<phoneme> at character ${at} needs a ph attribute with the phonemes`);
  }
}

/** The markup's parse: characters, weights, spans, and what it asks beyond the words. */
class SsmlReader {
  readonly chars: string[] = [];
  readonly weights: number[] = [];
  readonly voicingAt: number[] = [];
  readonly breaksMs = new Map<number, number>();
  readonly forced: ForcedSpan[] = [];
  readonly marks: SourceMark[] = [];
  readonly ignored = new Set<string>();
  readonly voicings: Voicing[] = [NEUTRAL_VOICING];
  readonly #voicingIndex = new Map<string, number>([[voicingKey(NEUTRAL_VOICING), 0]]);
  readonly stack: OpenElement[] = [];
  /** Input code points (markup) not yet attached to a character. */
  pending = 0;

  constructor(private readonly strict: boolean) {}

  top(): OpenElement | undefined {
    return this.stack[this.stack.length - 1];
  }

  get silent(): boolean {
    return this.top()?.silent === true;
  }

  emit(char: string, weight: number): void {
    this.chars.push(char);
    this.weights.push(weight + this.pending);
    this.voicingAt.push(this.top()?.voicing ?? 0);
    this.pending = 0;
  }

  #intern(voicing: Voicing): number {
    const key = voicingKey(voicing);
    let index = this.#voicingIndex.get(key);
    if (index === undefined) {
      index = this.voicings.length;
      this.voicings.push(voicing);
      this.#voicingIndex.set(key, index);
    }
    return index;
  }

  /** An element Raaga does not apply: dropped and named (lenient), or refused (strict). */
  #notApplied(name: string, at: number, why: string): void {
    if (this.strict) throw invalid(`<${name}> at character ${at} ${why} (the strict mode refuses what it does not apply)`);
    this.ignored.add(name);
  }

  /** How the content of element `name` opened at `at` is spoken, from the enclosing element's voicing. */
  #voicingOf(name: string, attributes: ReadonlyMap<string, string>, at: number): number {
    const enclosing = this.top()?.voicing ?? 0;
    const current = this.voicings[enclosing] as Voicing;
    if (name === 'prosody') return this.#intern(prosodyChange(attributes, at)(current));
    if (name === 'emphasis') return this.#intern(emphasisChange(attributes.get('level'), at)(current));
    const tag = attributes.get('xml:lang');
    // <speak xml:lang> is boilerplate of other vendors' SSML: the request's `language` field rules the text.
    if (tag === undefined || name === 'speak' || !['lang', 'p', 's'].includes(name)) return enclosing;
    const language = ssmlLanguage(tag);
    if (language === undefined) {
      if (this.strict) throw invalid(`<${name} xml:lang="${tag}"> at character ${at} is not one of the languages ${LANGUAGE_CODES.join(', ')}`);
      this.ignored.add(name === 'lang' ? 'lang' : 'xml:lang');
      return enclosing;
    }
    return this.#intern({ ...current, language });
  }

  open(name: string, attributes: ReadonlyMap<string, string>, selfClosing: boolean, at: number): void {
    checkAttributes(name, attributes, at);
    if (name === 'audio') throw invalid(`<audio> at character ${at} is not supported: Raaga fetches no audio (remove the element, or speak its text instead)`);
    const silent = this.silent;
    if (name === 'break') {
      if (!silent) {
        this.breaksMs.set(this.chars.length, breakMs(attributes, at));
        this.emit(' ', 0);
      }
    } else if (name === 'mark') {
      if (!silent) this.marks.push({ name: (attributes.get('name') as string).trim(), index: this.chars.length });
    } else if (name === 'phoneme') {
      this.#notApplied(name, at, 'is not supported: no engine here takes phonemes yet (its text is spoken)');
    } else if (!SUPPORTED.includes(name)) {
      this.#notApplied(name, at, `is not supported (supported: ${SUPPORTED.filter((known) => known !== 'phoneme').join(', ')})`);
    }
    if (selfClosing) {
      if (name === 'say-as' || name === 'sub') throw invalid(`<${name}/> at character ${at} is empty`);
      return;
    }
    const voicing = this.#voicingOf(name, attributes, at);
    const dropped = !SUPPORTED.includes(name) && NOT_SPOKEN.has(name);
    this.stack.push({ name, start: at, attributes, voicing, index: this.chars.length, silent: silent || dropped });
  }

  close(open: OpenElement): void {
    if (open.silent) return;
    if (open.name === 'sub' || open.name === 'say-as') this.#closeForced(open);
    // A paragraph or sentence end is a sentence boundary: a newline the splitter cuts at.
    if (open.name === 'p' || open.name === 's') this.emit('\n', 0);
  }

  #closeForced(open: OpenElement): void {
    const start = open.index;
    const content = this.chars.slice(start).join('');
    if (open.name === 'sub') {
      if (content.trim() === '') throw invalid(`<sub> at character ${open.start} is empty`);
      this.forced.push({ start, end: this.chars.length, interpretAs: 'alias', alias: open.attributes.get('alias') as string });
      return;
    }
    const kind = INTERPRET_AS[open.attributes.get('interpret-as') as string] as InterpretAs;
    const format = open.attributes.get('format');
    checkSayAs(kind, format, content, open.start);
    this.forced.push({ start, end: this.chars.length, interpretAs: kind, ...(format !== undefined ? { format } : {}) });
  }

  result(): SourceText {
    const { chars, weights, breaksMs, forced } = this;
    const voiced = this.voicings.length > 1 ? { voicings: this.voicings, voicingAt: this.voicingAt } : {};
    return {
      chars,
      weights,
      breaksMs,
      forced,
      ...voiced,
      ...(this.marks.length > 0 ? { marks: this.marks } : {}),
      ...(this.ignored.size > 0 ? { ignored: [...this.ignored] } : {}),
    };
  }
}

/** Parses SSML into the text to read, with its spans, breaks, voicings and marks; throws `validation_error` when malformed. */
export function parseSsml(text: string, options: SsmlOptions = {}): SourceText {
  const input = [...text];
  const reader = new SsmlReader(options.strict === true);
  const { stack } = reader;
  let rootOpened = false;
  let rootClosed = false;

  let p = 0;
  while (p < input.length) {
    const ch = input[p] as string;
    if (ch === '<') {
      const end = tagEnd(input, p);
      const tag = input.slice(p, end).join('');
      const weight = end - p;
      reader.pending += weight;
      p = end;
      if (tag.startsWith('<!--')) continue;
      // The XML declaration other vendors' SSML starts with (`<?xml version="1.0"?>`), before the root only.
      if (tag.startsWith('<?xml') && tag.endsWith('?>') && !rootOpened) continue;
      const at = p - weight;
      const match = /^<(\/?)([A-Za-z][\w:.-]*)([^]*?)(\/?)>$/u.exec(tag);
      if (!match) throw invalid(`'${tag.slice(0, 40)}' at character ${at} is not a tag`);
      const [, closing, name = '', body = '', selfClosing] = match;
      if (rootClosed) throw invalid(`<${name}> at character ${at} comes after </speak>`);
      if (closing) {
        if (body.trim() !== '') throw invalid(`</${name}> at character ${at} has attributes`);
        const open = stack.pop();
        if (!open) throw invalid(`</${name}> at character ${at} closes nothing`);
        if (open.name !== name) throw invalid(`</${name}> at character ${at} does not close <${open.name}> (opened at character ${open.start})`);
        reader.close(open);
        if (name === 'speak') rootClosed = true;
        continue;
      }
      if (stack.length === 0 && name !== 'speak') throw invalid(`the text must start with <speak>, not <${name}>`);
      if (stack.length > 0 && name === 'speak') throw invalid(`<speak> at character ${at} is nested inside <${reader.top()?.name}>`);
      const parent = reader.top();
      if (parent && TEXT_ONLY.has(parent.name)) throw invalid(`<${name}> at character ${at} is inside <${parent.name}>, which may contain only text`);
      if (parent && (parent.name === 'break' || parent.name === 'mark')) throw invalid(`<${parent.name}> at character ${parent.start} must be empty`);
      reader.open(name, parseAttributes(body, name, at), selfClosing === '/', at);
      rootOpened = true;
      continue;
    }
    if (stack.length === 0) {
      if (!/\s/u.test(ch)) throw invalid(rootClosed ? `text after </speak> at character ${p}` : 'the text must start with <speak>');
      reader.pending += 1;
      p++;
      continue;
    }
    const open = reader.top() as OpenElement;
    if (open.name === 'break') throw invalid(`<break> at character ${open.start} must be empty (write <break time="300ms"/>)`);
    if (open.name === 'mark') throw invalid(`<mark> at character ${open.start} must be empty (write <mark name="here"/>)`);
    let char = ch;
    let weight = 1;
    if (ch === '&') {
      const semicolon = input.indexOf(';', p);
      const name = semicolon > p && semicolon - p <= 12 ? input.slice(p + 1, semicolon).join('') : undefined;
      const decoded = name === undefined ? undefined : entityValue(name);
      if (decoded === undefined) throw invalid(`'&' at character ${p} is not an entity (write &amp; for &)`);
      char = decoded;
      weight = semicolon + 1 - p;
    }
    if (reader.silent) reader.pending += weight;
    else reader.emit(char, weight);
    p += weight;
  }
  const open = reader.top();
  if (open) throw invalid(`<${open.name}> opened at character ${open.start} is never closed`);
  if (!reader.chars.some((char) => /[\p{L}\p{N}]/u.test(char))) throw invalid('it has nothing to say');
  const { weights } = reader;
  weights[weights.length - 1] = (weights[weights.length - 1] as number) + reader.pending;
  return reader.result();
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
