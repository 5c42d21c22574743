// Ogg pages as written here: header fields, lacing of packets at the 255-byte boundaries, the page limit, splitting
// a byte run back into its pages, and a new serial number with valid CRCs.
import { describe, expect, it } from 'vitest';
import { oggCrc32 } from '../../../src/audio/ogg-crc.js';
import { OGG_BEGINNING_OF_STREAM, OGG_END_OF_STREAM, oggPage, splitOggPages, withOggSerial } from '../../../src/audio/ogg-page.js';
import { concatBytes } from './signal-helpers.js';

function crcHolds(page: Uint8Array): boolean {
  const copy = page.slice();
  const stored = new DataView(copy.buffer).getUint32(22, true);
  copy.fill(0, 22, 26);
  return oggCrc32(copy) === stored;
}

const packet = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('oggPage', () => {
  it('writes the header fields, the lacing values and the packets', () => {
    const page = oggPage({ headerType: OGG_BEGINNING_OF_STREAM, granulePosition: 2 ** 33 + 5, serial: 0xdeadbeef, sequence: 7, packets: [packet(3, 1), packet(255, 2), packet(0, 3), packet(256, 4)] });
    const view = new DataView(page.buffer);
    expect(String.fromCharCode(...page.subarray(0, 4))).toBe('OggS');
    expect(page[4]).toBe(0);
    expect(page[5]).toBe(OGG_BEGINNING_OF_STREAM);
    expect(view.getBigUint64(6, true)).toBe(BigInt(2 ** 33 + 5));
    expect(view.getUint32(14, true)).toBe(0xdeadbeef);
    expect(view.getUint32(18, true)).toBe(7);
    // 3 → [3]; 255 → [255, 0] (a packet of exactly 255 bytes needs a terminating 0); 0 → [0]; 256 → [255, 1].
    expect(Array.from(page.subarray(27, 27 + page[26]!))).toEqual([3, 255, 0, 0, 255, 1]);
    expect(page.length).toBe(27 + 6 + 3 + 255 + 0 + 256);
    expect(page[33]).toBe(1);
    expect(page[page.length - 1]).toBe(4);
    expect(crcHolds(page)).toBe(true);
  });

  it('refuses packets that need more than 255 lacing values', () => {
    expect(() => oggPage({ headerType: 0, granulePosition: 0, serial: 1, sequence: 0, packets: Array.from({ length: 256 }, () => packet(1, 0)) })).toThrow(RangeError);
    expect(oggPage({ headerType: 0, granulePosition: 0, serial: 1, sequence: 0, packets: Array.from({ length: 255 }, () => packet(1, 0)) })[26]).toBe(255);
  });
});

describe('splitOggPages and withOggSerial', () => {
  const pages = [
    oggPage({ headerType: OGG_BEGINNING_OF_STREAM, granulePosition: 0, serial: 42, sequence: 0, packets: [packet(19, 9)] }),
    oggPage({ headerType: 0, granulePosition: 960, serial: 42, sequence: 1, packets: [packet(300, 8), packet(40, 7)] }),
    oggPage({ headerType: OGG_END_OF_STREAM, granulePosition: 1500, serial: 42, sequence: 2, packets: [packet(60, 6)] }),
  ];
  const run = concatBytes(pages);

  it('finds every page of a run of whole pages, as views', () => {
    const split = splitOggPages(run);
    expect(split.map((page) => page.length)).toEqual(pages.map((page) => page.length));
    expect(split.every((page) => page.buffer === run.buffer)).toBe(true);
    expect(Buffer.from(split[1]!).equals(Buffer.from(pages[1]!))).toBe(true);
  });

  it('refuses a run that is not whole pages', () => {
    expect(() => splitOggPages(run.subarray(0, run.length - 1))).toThrow(/cut short/);
    expect(() => splitOggPages(run.subarray(1))).toThrow(/no Ogg page/);
  });

  it('gives every page a new serial and a valid CRC, and changes nothing else', () => {
    const restamped = withOggSerial(run, 0x01020304);
    expect(restamped).not.toBe(run);
    const split = splitOggPages(restamped);
    for (const [i, page] of split.entries()) {
      expect(new DataView(page.buffer, page.byteOffset).getUint32(14, true)).toBe(0x01020304);
      expect(crcHolds(page)).toBe(true);
      const original = pages[i]!;
      expect(Buffer.from(page.subarray(26)).equals(Buffer.from(original.subarray(26)))).toBe(true);
      expect(Buffer.from(page.subarray(0, 14)).equals(Buffer.from(original.subarray(0, 14)))).toBe(true);
    }
    expect(new DataView(run.buffer).getUint32(14, true)).toBe(42);
  });
});
