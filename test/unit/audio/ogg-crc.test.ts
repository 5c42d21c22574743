// The Ogg page CRC against two vectors it did not produce: the catalogued check value of its parameters, and a page
// written by libogg (the first page of a Vorbis file).
import { describe, expect, it } from 'vitest';
import { oggCrc32 } from '../../../src/audio/ogg-crc.js';

/** The identification page of a Vorbis file muxed by libogg (keyboard-typing.ogg of @livekit/agents), 58 bytes. */
const LIBOGG_PAGE_HEX =
  '4f676753000200000000000000009e6a5c240000000044f17535011e01766f72626973000000000180bb00000000000080bb000000000000b801';

describe('oggCrc32', () => {
  it('gives the check value of CRC-32 with polynomial 0x04C11DB7, init 0, no reflection, no final XOR', () => {
    // CRC-32/POSIX (cksum) has the same parameters with a final XOR of 0xFFFFFFFF and checks to 0x765E7680.
    expect(oggCrc32(new TextEncoder().encode('123456789'))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
    expect(oggCrc32(new Uint8Array(0))).toBe(0);
  });

  it('matches the checksum libogg wrote into a real page (computed with the checksum field zeroed)', () => {
    const page = Uint8Array.from(Buffer.from(LIBOGG_PAGE_HEX, 'hex'));
    expect(page.length).toBe(58);
    const stored = new DataView(page.buffer).getUint32(22, true);
    expect(stored).toBe(0x3575f144);
    page.fill(0, 22, 26);
    expect(oggCrc32(page)).toBe(stored);
  });
});
