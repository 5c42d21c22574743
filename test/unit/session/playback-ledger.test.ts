// The playback ledger: marks confirm chunks; a clear bumps the generation, reports what each outstanding utterance
// played and what was heard, and the echoes of cleared marks are ignored.

import { describe, expect, it } from 'vitest';
import { PlaybackLedger } from '../../../src/session/playback-ledger.js';
import type { TurnInfo } from '../../../src/session/call-turns.js';
import { splitUtterance } from '../../../src/core/text/split-utterance.js';

const text = 'पहला वाक्य। दूसरा वाक्य। तीसरा।';
const turn = (seq: number, interruptible = true): TurnInfo => ({
  seq,
  utteranceId: `utt-${seq}`,
  text,
  // Chunks partition the text by code points: "पहला वाक्य। " "दूसरा वाक्य। " "तीसरा।"
  chunks: splitUtterance(text, { firstChunkMaxChars: 200, maxChunkChars: 200 }),
  words: [],
  interruptible,
});

describe('PlaybackLedger', () => {
  it('names marks by turn, chunk and generation; the final echo completes the utterance', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 800);
    expect(ledger.markSent(1, 0, false).name).toBe('u1.c0.g0');
    ledger.audioSent(1, 900);
    expect(ledger.markSent(1, 2, true).name).toBe('u1.c2.g0');
    expect(ledger.outstanding()).toBe(true);
    expect(ledger.echoed('u1.c0.g0')).toEqual({ kind: 'played', utteranceId: 'utt-1', final: false, durationMs: 800 });
    expect(ledger.echoed('u1.c2.g0')).toEqual({ kind: 'played', utteranceId: 'utt-1', final: true, durationMs: 1700 });
    expect(ledger.outstanding()).toBe(false);
    expect(ledger.echoed('u1.c2.g0')).toEqual({ kind: 'unknown' });
  });

  it('a clear reports heard text per confirmed marks and played ms from the estimate, and ignores cleared echoes', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 1000);
    ledger.markSent(1, 0, false);
    ledger.audioSent(1, 1000);
    ledger.markSent(1, 1, false);
    ledger.audioSent(1, 300);
    expect(ledger.echoed('u1.c0.g0').kind).toBe('played');
    // 1500 ms played by the playout estimate: more than confirmed (1000), less than sent (2300).
    expect(ledger.clear(1500)).toEqual([{ utteranceId: 'utt-1', playedMs: 1500, heardText: 'पहला वाक्य।' }]);
    expect(ledger.generation).toBe(1);
    expect(ledger.outstanding()).toBe(false);
    expect(ledger.echoed('u1.c1.g0')).toEqual({ kind: 'cleared' });
    ledger.begin(turn(2), 0);
    expect(ledger.markSent(2, 0, false).name).toBe('u2.c0.g1');
  });

  it('played ms never goes below what marks confirmed nor beyond what was sent; utterances are placed on one axis', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 500);
    ledger.markSent(1, 2, true);
    ledger.begin(turn(2), 500);
    ledger.audioSent(2, 400);
    const cut = ledger.clear(600);
    expect(cut).toEqual([
      { utteranceId: 'utt-1', playedMs: 500, heardText: '' },
      { utteranceId: 'utt-2', playedMs: 100, heardText: '' },
    ]);
  });

  it('knows when a non-interruptible utterance is still playing', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1, false), 0);
    expect(ledger.protectedOutstanding()).toBe(true);
    ledger.abandon(1);
    expect(ledger.protectedOutstanding()).toBe(false);
  });
});

describe('PlaybackLedger position marks and holds', () => {
  it('position marks confirm the playout axis; a held call keeps its utterances and ignores the old marks', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 400);
    const p40 = ledger.positionMark(40);
    const p80 = ledger.positionMark(80);
    expect([p40, p80]).toEqual(['p40.g0', 'p80.g0']);
    expect(ledger.echoed(p40)).toEqual({ kind: 'position' });
    expect(ledger.confirmedMs).toBe(40);
    expect(ledger.locate(40)).toEqual({ utteranceId: 'utt-1', offsetMs: 40 });
    ledger.hold();
    expect(ledger.generation).toBe(1);
    // The mark pending at the hold comes back flushed: ignored, the position stays.
    expect(ledger.echoed(p80)).toEqual({ kind: 'cleared' });
    expect(ledger.confirmedMs).toBe(40);
    expect(ledger.outstanding()).toBe(true);
    // Issued again from the tape, a chunk mark keeps its place in the utterance, in the new generation.
    expect(ledger.markSent(1, 0, false, 200).name).toBe('u1.c0.g1');
    expect(ledger.echoed('u1.c0.g1')).toEqual({ kind: 'played', utteranceId: 'utt-1', final: false, durationMs: 200 });
    expect(ledger.confirmedMs).toBe(200);
  });

  it('a clear after position marks reports at least the confirmed position, and starts the axis again', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 1000);
    ledger.echoed(ledger.positionMark(600));
    // The estimate lags what the marks proved: the marks win, within what was sent.
    expect(ledger.clear(300)).toEqual([{ utteranceId: 'utt-1', playedMs: 600, heardText: '' }]);
    expect(ledger.confirmedMs).toBe(0);
  });

  it('locates a position in the utterance that holds it', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(turn(1), 0);
    ledger.audioSent(1, 500);
    ledger.begin(turn(2), 500);
    ledger.audioSent(2, 300);
    expect(ledger.locate(120)).toEqual({ utteranceId: 'utt-1', offsetMs: 120 });
    expect(ledger.locate(620)).toEqual({ utteranceId: 'utt-2', offsetMs: 120 });
    expect(ledger.locate(5000)).toEqual({ utteranceId: 'utt-2', offsetMs: 300 });
  });
});

describe('PlaybackLedger heard text at word resolution', () => {
  // "पहला वाक्य। " then "दूसरा वाक्य। ": the engine said where each word after the first starts in its chunk's audio.
  const withWords = (): TurnInfo => ({
    ...turn(1),
    words: [
      { chunk: 0, atMs: 300, textEnd: 4 },
      { chunk: 1, atMs: 350, textEnd: 5 },
      { chunk: 2, atMs: 100, textEnd: 5 },
    ],
  });

  it('a word counts once the next one started before the last position confirmed', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 1000);
    ledger.echoed(ledger.positionMark(280));
    expect(ledger.clear(900)[0]?.heardText).toBe('');

    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 1000);
    ledger.echoed(ledger.positionMark(320));
    // "पहला" ended at 300 ms; "वाक्य" had started, not ended: not heard, whatever the estimate says.
    expect(ledger.clear(900)).toEqual([{ utteranceId: 'utt-1', playedMs: 900, heardText: 'पहला' }]);
  });

  it('places a later chunk by the mark that ended the one before, padding included', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 1020);
    ledger.markSent(1, 0, false);
    ledger.audioSent(1, 900);
    // Chunk 1 starts at 1020 ms (the mark's place): its first word ends 350 ms in, at 1370. A position past the
    // mark proves chunk 0 whole even though its own mark has not come back.
    ledger.echoed(ledger.positionMark(1360));
    expect(ledger.clear(1800)[0]?.heardText).toBe('पहला वाक्य।');

    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 1020);
    ledger.markSent(1, 0, false);
    ledger.audioSent(1, 900);
    ledger.echoed(ledger.positionMark(1400));
    expect(ledger.clear(1800)[0]?.heardText).toBe('पहला वाक्य। दूसरा');
  });

  it('never reports less than the chunks confirmed, and nothing of a chunk whose start is unknown', () => {
    const ledger = new PlaybackLedger();
    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 1000);
    ledger.markSent(1, 0, false);
    ledger.audioSent(1, 500);
    ledger.echoed('u1.c0.g0');
    expect(ledger.clear(1200)[0]?.heardText).toBe('पहला वाक्य।');

    // A boundary of chunk 2 while chunk 1's end was never marked: not counted, however far the position.
    ledger.begin(withWords(), 0);
    ledger.audioSent(1, 3000);
    ledger.echoed(ledger.positionMark(2900));
    expect(ledger.clear(2900)[0]?.heardText).toBe('पहला');
  });
});
