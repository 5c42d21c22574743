// The clustergen model data after a .flitevox header, walked in the order flite's cst_cg_load_db reads it (trees,
// model vectors, duration stats, phone states, MLSA and excitation settings) without keeping any of it: a file that
// ends early is refused before flite reads it (flite would speak silence or trap, see docs/notes/flite-notes.md).

import type { FlitevoxCursor } from './flitevox-cursor.js';

/** The model counts the header's features declare (flite's defaults when absent: 1 each, shape 1). */
export interface FlitevoxModelCounts {
  readonly f0Models: number;
  readonly paramModels: number;
  readonly durModels: number;
  readonly modelShape: number;
}

export interface FlitevoxBody {
  /** F0 comes from the SPAM accent/phrase model, which ignores int_f0_target_mean and f0_shift. */
  readonly spamF0: boolean;
  /** Bytes after the last field flite reads (0 for a file flite dumped; flite ignores any). */
  readonly trailingBytes: number;
}

// cst_val.h: a CART node's value is a padded string for this type, four bytes (int or float) otherwise.
const CST_VAL_TYPE_STRING = 5;
// cst_cg.h: shapes above CST_CG_MODEL_SHAPE_BASE_MINRANGE carry a quantisation table per parameter model.
const CST_CG_MODEL_SHAPE_BASE_MINRANGE = 1;

function tree(cursor: FlitevoxCursor, what: string): void {
  const nodes = cursor.count(`${what} node count`);
  for (let i = 0; i < nodes; i++) {
    cursor.take(4, `${what} node ${i}`); // feat (1 byte), op (1 byte), no_node (2 bytes)
    const at = cursor.take(2, `${what} node ${i} value type`);
    const view = new DataView(cursor.bytes.buffer, cursor.bytes.byteOffset + at, 2);
    if (view.getInt16(0, cursor.littleEndian) === CST_VAL_TYPE_STRING) cursor.padded(`${what} node ${i} value`);
    else cursor.take(4, `${what} node ${i} value`);
  }
  const feats = cursor.count(`${what} feature count`);
  for (let i = 0; i < feats; i++) cursor.padded(`${what} feature ${i}`);
}

/** Skips one array of CART trees (a count, then the trees). */
export function skipTreeArray(cursor: FlitevoxCursor, what: string): void {
  const trees = cursor.count(`${what} count`);
  for (let i = 0; i < trees; i++) tree(cursor, `${what} ${i}`);
}

/** Skips a 2-D array: a row count, then each row as a padded block. */
export function skipRows(cursor: FlitevoxCursor, what: string): void {
  const count = cursor.count(`${what} row count`);
  for (let i = 0; i < count; i++) cursor.padded(`${what} row ${i}`);
}

/** Walks the body from just after f0_stddev to the end of the file. */
export function walkFlitevoxBody(cursor: FlitevoxCursor, counts: FlitevoxModelCounts): FlitevoxBody {
  for (let i = 0; i < counts.f0Models; i++) skipTreeArray(cursor, `F0 tree set ${i}`);
  for (let i = 0; i < counts.paramModels; i++) skipTreeArray(cursor, `parameter tree set ${i}`);
  const spamF0 = cursor.int32('the spamf0 flag') !== 0;
  if (spamF0) {
    tree(cursor, 'SPAM accent tree');
    tree(cursor, 'SPAM phrase tree');
  }
  for (let i = 0; i < counts.paramModels; i++) {
    cursor.take(8, `parameter model ${i} channel and frame counts`);
    skipRows(cursor, `parameter model ${i} vectors`);
  }
  if (spamF0) {
    cursor.take(8, 'SPAM accent channel and frame counts');
    skipRows(cursor, 'SPAM accent vectors');
  }
  cursor.padded('model minima');
  cursor.padded('model ranges');
  if (counts.modelShape > CST_CG_MODEL_SHAPE_BASE_MINRANGE) {
    for (let i = 0; i < counts.paramModels; i++) skipRows(cursor, `quantisation table ${i}`);
  }
  cursor.take(4, 'the frame advance');
  for (let i = 0; i < counts.durModels; i++) {
    const stats = cursor.count(`duration model ${i} stat count`);
    for (let j = 0; j < stats; j++) {
      cursor.take(8, `duration stat ${j} mean and deviation`);
      cursor.padded(`duration stat ${j} phone`);
    }
    tree(cursor, `duration tree ${i}`);
  }
  const phones = cursor.count('phone state count');
  for (let i = 0; i < phones; i++) {
    const states = cursor.count(`phone ${i} state count`);
    for (let j = 0; j < states; j++) cursor.padded(`phone ${i} state ${j}`);
  }
  cursor.take(4, 'the MLPG flag');
  cursor.padded('the dynamic window');
  cursor.take(4 * 5, 'the window size, MLSA alpha and beta, multimodel and mixed excitation flags');
  cursor.take(8, 'the mixed excitation filter counts');
  skipRows(cursor, 'mixed excitation filters');
  cursor.take(8, 'the second spamf0 flag and the gain');
  return { spamF0, trailingBytes: cursor.remaining };
}
