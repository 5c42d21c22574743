// Ogg pages (RFC 3533): writing one page of whole packets, finding where the pages of a byte run begin and end,
// and giving a finished stream a new serial number. Packets never continue across pages here: each page ends
// with a whole packet, so its granule position is always set.

import { oggCrc32 } from './ogg-crc.js';

/** Header-type flags of a page. */
export const OGG_BEGINNING_OF_STREAM = 0x02;
export const OGG_END_OF_STREAM = 0x04;

/** A page holds at most 255 lacing values; a packet of n bytes takes floor(n / 255) + 1 of them. */
export const OGG_MAX_LACING_VALUES = 255;
const HEADER_BYTES = 27;
const CAPTURE = [0x4f, 0x67, 0x67, 0x53]; // "OggS"
const SERIAL_OFFSET = 14;
const CRC_OFFSET = 22;

export function lacingValuesOf(packetBytes: number): number {
  return Math.floor(packetBytes / 255) + 1;
}

export interface OggPageFields {
  readonly headerType: number;
  /** The granule position after the last packet of the page (for Opus: 48 kHz samples, pre-skip included). */
  readonly granulePosition: number;
  readonly serial: number;
  readonly sequence: number;
  readonly packets: readonly Uint8Array[];
}

/** One page holding `packets` whole, its CRC filled in. Throws if they need more than 255 lacing values. */
export function oggPage(fields: OggPageFields): Uint8Array {
  const lacing: number[] = [];
  let bodyBytes = 0;
  for (const packet of fields.packets) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(255, left));
      if (left < 255) break;
    }
    bodyBytes += packet.length;
  }
  if (lacing.length > OGG_MAX_LACING_VALUES) throw new RangeError(`an Ogg page holds 255 lacing values, these packets need ${lacing.length}`);
  const page = new Uint8Array(HEADER_BYTES + lacing.length + bodyBytes);
  const view = new DataView(page.buffer);
  page.set(CAPTURE, 0);
  page[4] = 0; // stream structure version
  page[5] = fields.headerType;
  view.setBigUint64(6, BigInt(fields.granulePosition), true);
  view.setUint32(SERIAL_OFFSET, fields.serial >>> 0, true);
  view.setUint32(18, fields.sequence >>> 0, true);
  page[26] = lacing.length;
  page.set(lacing, HEADER_BYTES);
  let offset = HEADER_BYTES + lacing.length;
  for (const packet of fields.packets) {
    page.set(packet, offset);
    offset += packet.length;
  }
  view.setUint32(CRC_OFFSET, oggCrc32(page), true);
  return page;
}

/**
 * Views (no copies) of each page in `bytes`, which must be whole pages (what the Ogg encoder here emits per call).
 * Throws on anything else: a caller relying on page boundaries must not guess.
 */
export function splitOggPages(bytes: Uint8Array): Uint8Array[] {
  const pages: Uint8Array[] = [];
  let offset = 0;
  for (const length of pageLengths(bytes)) {
    pages.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return pages;
}

function pageLengths(bytes: Uint8Array): number[] {
  const lengths: number[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const segments = bytes[offset + 26];
    if (segments === undefined || !CAPTURE.every((byte, i) => bytes[offset + i] === byte)) {
      throw new Error(`no Ogg page starts at byte ${offset}`);
    }
    let length = HEADER_BYTES + segments;
    for (let i = 0; i < segments; i++) length += bytes[offset + HEADER_BYTES + i] ?? 0;
    if (offset + length > bytes.length) throw new Error(`the Ogg page at byte ${offset} is cut short`);
    lengths.push(length);
    offset += length;
  }
  return lengths;
}

/**
 * A copy of whole pages with every page's serial number set to `serial` and its CRC recomputed: a recorded stream
 * replayed as a new link of a chain (RFC 3533 §4: each link of a chained stream has a serial of its own).
 */
export function withOggSerial(bytes: Uint8Array, serial: number): Uint8Array {
  const out = bytes.slice();
  for (const page of splitOggPages(out)) {
    const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
    view.setUint32(SERIAL_OFFSET, serial >>> 0, true);
    view.setUint32(CRC_OFFSET, 0, true);
    view.setUint32(CRC_OFFSET, oggCrc32(page), true);
  }
  return out;
}

/** A random serial number for a new logical stream. */
export function newOggSerial(): number {
  return Math.floor(Math.random() * 0x1_0000_0000) >>> 0;
}
