// A bounds-checked reader over a .flitevox file's bytes, in the byte order its header declares. Every read past the
// end throws FliteVoiceError naming the file, what was being read and where: that is how a truncated file shows.

import { FliteVoiceError } from './flite-voice-error.js';

const UTF8 = new TextDecoder('utf-8', { fatal: false });

export class FlitevoxCursor {
  offset = 0;
  littleEndian = true;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly path: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** Moves past `length` bytes of `what`, or throws: the file ends first. */
  take(length: number, what: string): number {
    if (length > this.remaining) {
      throw new FliteVoiceError(
        this.path,
        `is truncated: ${what} at byte ${this.offset} needs ${length} bytes, the file ends after ${this.remaining} (${this.bytes.length} bytes in all)`,
      );
    }
    const at = this.offset;
    this.offset += length;
    return at;
  }

  int32(what: string): number {
    return this.view.getInt32(this.take(4, what), this.littleEndian);
  }

  float32(what: string): number {
    return this.view.getFloat32(this.take(4, what), this.littleEndian);
  }

  /** A non-negative element count; a negative one is corrupt data, not a short file. */
  count(what: string): number {
    const at = this.offset;
    const value = this.int32(what);
    if (value < 0) throw new FliteVoiceError(this.path, `is corrupt: ${what} at byte ${at} is ${value}`);
    return value;
  }

  /** flite's padded block: an int32 byte length, then that many bytes. */
  padded(what: string): Uint8Array {
    const length = this.count(`the length of ${what}`);
    const at = this.take(length, what);
    return this.bytes.subarray(at, at + length);
  }

  /** A padded NUL-terminated string. */
  string(what: string): string {
    const block = this.padded(what);
    const nul = block.indexOf(0);
    return UTF8.decode(nul < 0 ? block : block.subarray(0, nul));
  }
}
