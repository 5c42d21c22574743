// A bigger real voice without a download: a dumped .flitevox whose parameter model (its CART trees and model vectors,
// most of the file) is repeated `copies` times with num_param_models raised to match. flite loads every copy and
// averages identical models, so it speaks as before: a stand-in for the larger CMU voices when timing a voice load.

import { withFlitevoxFeatures } from '../../fixtures/voices/lib/flite-voices.js';
import { FlitevoxCursor } from '../../src/engine/flite/flitevox-cursor.js';
import { skipRows, skipTreeArray } from '../../src/engine/flite/flitevox-body.js';
import { FLITEVOX_MAGIC, parseFlitevoxHeader } from '../../src/engine/flite/flitevox-header.js';

/** `bytes` (one parameter model, little-endian, no SPAM F0) with that model `copies` times. */
export function inflateFlitevox(bytes: Uint8Array, copies: number): Buffer {
  const header = parseFlitevoxHeader(bytes, 'source voice');
  if (header.features.num_param_models !== '1' || header.features.num_f0_models !== '1' || header.spamF0 || header.byteOrder !== 'little-endian') {
    throw new Error('inflateFlitevox takes a little-endian voice with one parameter model, one F0 model and no SPAM F0');
  }
  const source = withFlitevoxFeatures(bytes, { num_param_models: String(copies) });
  const cursor = new FlitevoxCursor(source, 'source voice');
  cursor.take(FLITEVOX_MAGIC.length + 1 + 4, 'the magic and byte order');
  for (;;) {
    const name = cursor.string('a feature name');
    cursor.string('a feature value');
    if (name === 'end_of_features') break;
  }
  cursor.string('the voice name');
  const types = cursor.count('the type count');
  for (let i = 0; i < types; i++) cursor.padded('a type');
  cursor.take(16, 'type count, sample rate, F0 mean and deviation');
  skipTreeArray(cursor, 'F0 trees');
  const treesAt = cursor.offset;
  skipTreeArray(cursor, 'parameter trees');
  const treesEnd = cursor.offset;
  cursor.take(4, 'the spamf0 flag');
  const vectorsAt = cursor.offset;
  cursor.take(8, 'channel and frame counts');
  skipRows(cursor, 'model vectors');
  const vectorsEnd = cursor.offset;
  const trees = source.subarray(treesAt, treesEnd);
  const vectors = source.subarray(vectorsAt, vectorsEnd);
  return Buffer.concat([
    source.subarray(0, treesEnd),
    ...Array.from({ length: copies - 1 }, () => trees),
    source.subarray(treesEnd, vectorsEnd),
    ...Array.from({ length: copies - 1 }, () => vectors),
    source.subarray(vectorsEnd),
  ]);
}
