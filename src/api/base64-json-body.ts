// A JSON body whose first field is a large byte payload in base64 (`/v1/tts/generate`'s `audio`), written in
// bounded slices with an event-loop turn between them: one JSON.stringify of a 30 MB string, or one base64 of a
// 20 MB buffer, would block every live call for tens of milliseconds. Its exact length is known before the first byte.

import { Readable } from 'node:stream';
import { eventLoopTurn } from '../util/event-loop-turn.js';

/** Bytes encoded per slice: a multiple of 3, so slices concatenate into one valid base64 string (256 KiB of text). */
const SLICE_BYTES = 3 * 64 * 1024;

export interface JsonBody {
  readonly body: Readable;
  readonly lengthBytes: number;
}

/** `{"<key>":"<base64 of parts>", ...rest}` with the fields of `rest` after it in their order. */
export function base64JsonBody(key: string, parts: readonly Uint8Array[], rest: Readonly<Record<string, unknown>>): JsonBody {
  const head = Buffer.from(`{${JSON.stringify(key)}:"`);
  const restJson = JSON.stringify(rest);
  const tail = Buffer.from(restJson === '{}' ? '"}' : `",${restJson.slice(1)}`);
  const payloadBytes = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const lengthBytes = head.length + 4 * Math.ceil(payloadBytes / 3) + tail.length;
  async function* pieces(): AsyncGenerator<Buffer | string> {
    yield head;
    // Base64 is ASCII: the text's length is its byte length, and it goes out as it is.
    for await (const slice of slices(parts)) yield Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('base64');
    yield tail;
  }
  return { body: Readable.from(pieces(), { objectMode: false }), lengthBytes };
}

/** The parts as consecutive slices of SLICE_BYTES (the last one shorter), one event-loop turn apart. */
async function* slices(parts: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  const slice = new Uint8Array(SLICE_BYTES);
  let fill = 0;
  for (const part of parts) {
    let offset = 0;
    while (offset < part.byteLength) {
      const n = Math.min(SLICE_BYTES - fill, part.byteLength - offset);
      slice.set(part.subarray(offset, offset + n), fill);
      fill += n;
      offset += n;
      if (fill === SLICE_BYTES) {
        yield slice.slice();
        fill = 0;
        await eventLoopTurn();
      }
    }
  }
  if (fill > 0) yield slice.slice(0, fill);
}
