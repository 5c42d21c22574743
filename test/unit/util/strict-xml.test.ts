// The strict XML reader: elements, attributes, text, CDATA, entities and character references read exactly; comments,
// processing instructions and the XML declaration skipped; a DOCTYPE and every kind of malformed input refused naming
// the line and column; deep nesting read without recursion.

import { describe, expect, it } from 'vitest';
import { elementsOf, localName, parseXml, textOf, XmlError } from '../../../src/util/strict-xml.js';

function refusal(text: string): XmlError {
  try {
    parseXml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(XmlError);
    return error as XmlError;
  }
  throw new Error(`accepted ${text}`);
}

describe('strict XML', () => {
  it('reads elements, attributes, text, CDATA and entities', () => {
    const root = parseXml(
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->\n<a:root x="1" y=\'two &amp; &#x915;\'>\n  <b>AT&amp;T &lt;3 &#2325;</b><c/><![CDATA[<raw & text>]]>\n</a:root>\n',
    );
    expect(root.name).toBe('a:root');
    expect(localName(root.name)).toBe('root');
    expect([...root.attributes]).toEqual([
      ['x', '1'],
      ['y', 'two & क'],
    ]);
    expect(elementsOf(root).map((e) => [e.name, textOf(e), e.line])).toEqual([
      ['b', 'AT&T <3 क', 4],
      ['c', '', 4],
    ]);
    expect(textOf(root)).toBe('\n  AT&T <3 क<raw & text>\n');
  });

  it('refuses what is not well-formed, naming where', () => {
    expect(refusal('not xml at all').message).toBe('text outside the root element (line 1, column 1)');
    expect(refusal('<a><b></a>').message).toBe('</a> does not close <b> (line 1) (line 1, column 7)');
    expect(refusal('<a>\n<b>').message).toMatch(/<b> \(line 2\) is never closed/);
    expect(refusal('<a x=1></a>').message).toMatch(/the value of x must be in quotes/);
    expect(refusal('<a x="1" x="2"></a>').message).toMatch(/attribute x twice/);
    expect(refusal('<a>AT&T</a>').message).toMatch(/'&' must start an entity/);
    expect(refusal('<a>&nbsp;</a>').message).toMatch(/&nbsp; is not an entity XML defines/);
    expect(refusal('<a></a><b></b>').message).toMatch(/<b> after the root element/);
    expect(refusal('<a>').message).toMatch(/<a> \(line 1\) is never closed/);
    expect(refusal('').message).toMatch(/no root element/);
    expect(refusal('<a><!-- x </a>').message).toMatch(/a comment that never ends/);
  });

  it('refuses a DOCTYPE: no entity is ever defined or expanded', () => {
    expect(refusal('<!DOCTYPE lolz [<!ENTITY lol "lol">]><a>&lol;</a>').message).toMatch(/a DOCTYPE or other declaration/);
  });

  it('reads deep nesting without recursion', () => {
    const depth = 20_000;
    const root = parseXml(`${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`);
    expect(textOf(root)).toBe('x');
  });
});
