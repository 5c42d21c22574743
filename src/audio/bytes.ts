// Concatenation helpers for byte and sample chunks, shared by the buffering encoders,
// the MP3 block buffer and the output pipeline.

function concat<T extends Uint8Array | Float32Array>(chunks: readonly T[], allocate: (length: number) => T): T {
  if (chunks.length === 1) return chunks[0]!;
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = allocate(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

export const concatBytes = (chunks: readonly Uint8Array[]): Uint8Array => concat(chunks, (length) => new Uint8Array(length));

export const concatFloat32 = (chunks: readonly Float32Array[]): Float32Array => concat(chunks, (length) => new Float32Array(length));

export const EMPTY_BYTES: Uint8Array = new Uint8Array(0);
