// A small strict XML 1.0 reader for the documents Raaga takes in (W3C PLS lexicons), without an XML dependency:
// elements, attributes, text, CDATA, comments and processing instructions; the five entities and character references.
// A DOCTYPE is refused (no entity is ever defined or expanded, so no "billion laughs"), and so is anything malformed,
// naming the line and column. One pass with an explicit stack: linear in the input, no recursion however deep.

export interface XmlElement {
  /** As written, with its prefix (`xml:lang`'s element would be `prefix:local`). */
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  /** Elements and text runs in document order (comments and processing instructions dropped). */
  readonly children: readonly (XmlElement | string)[];
  /** Where its start tag is (1-based). */
  readonly line: number;
}

export class XmlError extends Error {
  constructor(
    readonly problem: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${problem} (line ${line}, column ${column})`);
    this.name = 'XmlError';
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_:][-A-Za-z0-9_:.\u00b7\u00c0-\uffff]*/y;
const WHITESPACE = /[ \t\r\n]*/y;

interface OpenElement {
  readonly name: string;
  readonly attributes: Map<string, string>;
  readonly children: (XmlElement | string)[];
  readonly line: number;
}

/** The document's root element; throws XmlError naming the first problem. */
export function parseXml(text: string): XmlElement {
  const input = text.startsWith('\ufeff') ? text.slice(1) : text;
  let i = 0;
  const where = (at: number): [number, number] => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < at && k < input.length; k++) {
      if (input.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    return [line, at - lineStart + 1];
  };
  const fail = (problem: string, at = i): never => {
    const [line, column] = where(at);
    throw new XmlError(problem, line, column);
  };
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  // Lines are counted once per element start, incrementally: no quadratic rescans.
  let lineAt = 0;
  let line = 1;
  const lineOf = (at: number): number => {
    for (; lineAt < at; lineAt++) if (input.charCodeAt(lineAt) === 10) line++;
    return line;
  };

  const decode = (raw: string, at: number): string =>
    raw.replace(/&([^;&<]*);?/g, (whole, entity: string) => {
      if (!whole.endsWith(';')) fail(`'&' must start an entity such as &amp;`, at);
      const named = ENTITIES[entity];
      if (named !== undefined) return named;
      const code = /^#x[0-9a-fA-F]{1,6}$/.test(entity) ? parseInt(entity.slice(2), 16) : /^#[0-9]{1,7}$/.test(entity) ? Number(entity.slice(1)) : NaN;
      if (!Number.isInteger(code) || code < 1 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) fail(`&${entity}; is not an entity XML defines`, at);
      return String.fromCodePoint(code);
    });

  const addText = (raw: string, at: number): void => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      if (raw.trim() !== '') fail('text outside the root element', at);
      return;
    }
    if (raw.includes('<')) fail("'<' in text", at);
    parent.children.push(decode(raw, at));
  };

  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt < 0) {
      addText(input.slice(i), i);
      break;
    }
    if (lt > i) addText(input.slice(i, lt), i);
    i = lt;
    if (input.startsWith('<!--', i)) {
      const end = input.indexOf('-->', i + 4);
      if (end < 0) fail('a comment that never ends');
      i = end + 3;
      continue;
    }
    if (input.startsWith('<![CDATA[', i)) {
      const end = input.indexOf(']]>', i + 9);
      if (end < 0) fail('a CDATA section that never ends');
      if (stack.length === 0) fail('CDATA outside the root element');
      stack[stack.length - 1]?.children.push(input.slice(i + 9, end));
      i = end + 3;
      continue;
    }
    if (input.startsWith('<!DOCTYPE', i) || input.startsWith('<!', i)) fail('a DOCTYPE or other declaration (not accepted: no entities are defined)');
    if (input.startsWith('<?', i)) {
      const end = input.indexOf('?>', i + 2);
      if (end < 0) fail('a processing instruction that never ends');
      i = end + 2;
      continue;
    }
    if (input.startsWith('</', i)) {
      NAME.lastIndex = i + 2;
      const name = NAME.exec(input)?.[0];
      if (!name) fail('a closing tag without a name');
      let k = i + 2 + (name as string).length;
      WHITESPACE.lastIndex = k;
      WHITESPACE.exec(input);
      k = WHITESPACE.lastIndex;
      if (input[k] !== '>') fail(`</${name}> is not closed with '>'`);
      const open = stack.pop();
      if (!open) fail(`</${name}> closes nothing`);
      if (open?.name !== name) fail(`</${name}> does not close <${open?.name}> (line ${open?.line})`);
      const element: XmlElement = { name: open!.name, attributes: open!.attributes, children: open!.children, line: open!.line };
      if (stack.length === 0) {
        if (root) fail('a second root element');
        root = element;
      } else stack[stack.length - 1]?.children.push(element);
      i = k + 1;
      continue;
    }
    // A start tag.
    const tagAt = i;
    NAME.lastIndex = i + 1;
    const name = NAME.exec(input)?.[0];
    if (!name) fail("'<' that starts no tag (write &lt;)");
    if (stack.length === 0 && root) fail(`<${name}> after the root element`);
    let k = i + 1 + (name as string).length;
    const attributes = new Map<string, string>();
    for (;;) {
      WHITESPACE.lastIndex = k;
      WHITESPACE.exec(input);
      const spaced = WHITESPACE.lastIndex > k;
      k = WHITESPACE.lastIndex;
      const ch = input[k];
      if (ch === undefined) fail(`<${name}> is never closed with '>'`, tagAt);
      if (ch === '>' || (ch === '/' && input[k + 1] === '>')) break;
      if (!spaced) fail(`<${name}>: put a space before each attribute`, k);
      NAME.lastIndex = k;
      const attribute = NAME.exec(input)?.[0];
      if (!attribute) fail(`<${name}> has a malformed attribute (write name="value")`, k);
      k += (attribute as string).length;
      WHITESPACE.lastIndex = k;
      WHITESPACE.exec(input);
      k = WHITESPACE.lastIndex;
      if (input[k] !== '=') fail(`attribute ${attribute} of <${name}> has no value (write ${attribute}="…")`, k);
      WHITESPACE.lastIndex = k + 1;
      WHITESPACE.exec(input);
      k = WHITESPACE.lastIndex;
      const quote = input[k];
      if (quote !== '"' && quote !== "'") fail(`the value of ${attribute} must be in quotes`, k);
      const end = input.indexOf(quote as string, k + 1);
      if (end < 0) fail(`the value of ${attribute} is never closed`, k);
      const raw = input.slice(k + 1, end);
      if (raw.includes('<')) fail(`'<' in the value of ${attribute}`, k);
      if (attributes.has(attribute as string)) fail(`<${name}> has attribute ${attribute} twice`, k);
      attributes.set(attribute as string, decode(raw, k));
      k = end + 1;
    }
    const selfClosing = input[k] === '/';
    const element: OpenElement = { name: name as string, attributes, children: [], line: lineOf(tagAt) };
    if (selfClosing) {
      const done: XmlElement = { ...element };
      if (stack.length === 0) root = done;
      else stack[stack.length - 1]?.children.push(done);
      i = k + 2;
    } else {
      stack.push(element);
      i = k + 1;
    }
  }
  const open = stack[stack.length - 1];
  if (open) fail(`<${open.name}> (line ${open.line}) is never closed`, input.length);
  if (!root) fail('no root element', input.length);
  return root as XmlElement;
}

/** The name without its namespace prefix (`pls:lexeme` → `lexeme`). */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** The element's text, its children's included, as one string. */
export function textOf(element: XmlElement): string {
  let text = '';
  const pending: (XmlElement | string)[] = [...element.children].reverse();
  while (pending.length > 0) {
    const next = pending.pop() as XmlElement | string;
    if (typeof next === 'string') text += next;
    else for (let k = next.children.length - 1; k >= 0; k--) pending.push(next.children[k] as XmlElement | string);
  }
  return text;
}

/** The child elements, in order. */
export function elementsOf(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string');
}
