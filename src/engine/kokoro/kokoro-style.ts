// A Kokoro voice: its style table (510 rows x 256 float32, little-endian, as kokoro-js's `voices/*.bin`; the
// [510, 1, 256] layout of other exports is the same bytes) and the row one run uses, chosen by its token count.

import { readFile } from 'node:fs/promises';
import { KOKORO_MAX_TOKENS } from './kokoro-vocab.js';

export const KOKORO_STYLE_ROWS = KOKORO_MAX_TOKENS;
export const KOKORO_STYLE_DIM = 256;
export const KOKORO_STYLE_FILE_BYTES = KOKORO_STYLE_ROWS * KOKORO_STYLE_DIM * 4;

/**
 * kokoro-js (`generate_from_ids`) takes row min(max(ids - 2, 0), 509) of the padded ids: the number of phoneme
 * tokens, pads not counted; kokoro-onnx does the same. Kokoro's Python KPipeline takes `pack[len(ps) - 1]`, one row
 * lower and counting the phoneme string's characters; neighbouring rows differ little, and kokoro-js is the
 * reference the rest of this engine follows.
 */
export function styleRowIndex(tokenCount: number): number {
  return Math.min(Math.max(Math.floor(tokenCount), 0), KOKORO_STYLE_ROWS - 1);
}

export class KokoroStyle {
  private constructor(
    private readonly table: Float32Array,
    /** Where it came from, for messages. */
    readonly source: string,
  ) {}

  static async load(path: string): Promise<KokoroStyle> {
    return KokoroStyle.fromBytes(await readFile(path), path);
  }

  /** Checks the size and that every value is finite; throws a message naming `source`. */
  static fromBytes(bytes: Uint8Array, source: string): KokoroStyle {
    if (bytes.byteLength !== KOKORO_STYLE_FILE_BYTES) {
      throw new Error(
        `${source}: not a Kokoro voice style file: ${bytes.byteLength} bytes, expected ${KOKORO_STYLE_FILE_BYTES} ` +
          `(${KOKORO_STYLE_ROWS} x ${KOKORO_STYLE_DIM} float32, little-endian)`,
      );
    }
    // DataView, not a Float32Array over the buffer: explicit byte order, and no alignment demand on a pooled Buffer.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const table = new Float32Array(KOKORO_STYLE_ROWS * KOKORO_STYLE_DIM);
    for (let i = 0; i < table.length; i++) {
      const value = view.getFloat32(i * 4, true);
      if (!Number.isFinite(value)) throw new Error(`${source}: Kokoro voice style file holds a non-finite value at row ${Math.floor(i / KOKORO_STYLE_DIM)}`);
      table[i] = value;
    }
    return new KokoroStyle(table, source);
  }

  /** The style vector for a run of `tokenCount` phoneme tokens (a copy: it becomes a tensor). */
  forTokens(tokenCount: number): Float32Array {
    const start = styleRowIndex(tokenCount) * KOKORO_STYLE_DIM;
    return this.table.slice(start, start + KOKORO_STYLE_DIM);
  }
}
