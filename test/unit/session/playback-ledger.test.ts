// The playback ledger: marks confirm chunks; a clear bumps the generation, reports what each outstanding utterance
// played and what was heard, and the echoes of cleared marks are ignored.

import { describe, expect, it } from 'vitest';
import { PlaybackLedger } from '../../../src/session/playback-ledger.js';
import type { TurnInfo } from '../../../src/session/synthesis-session.js';

const text = 'पहला वाक्य। दूसरा वाक्य। तीसरा।';
const turn = (seq: number, interruptible = true): TurnInfo => ({
  seq,
  utteranceId: `utt-${seq}`,
  text,
  // Chunks partition the text by code points: "पहला वाक्य। " "दूसरा वाक्य। " "तीसरा।"
  chunks: [
    { text: 'पहला वाक्य', codePoints: [...'पहला वाक्य। '].length, pauseAfterMs: 250 },
    { text: 'दूसरा वाक्य', codePoints: [...'दूसरा वाक्य। '].length, pauseAfterMs: 250 },
    { text: 'तीसरा', codePoints: [...'तीसरा।'].length, pauseAfterMs: 0 },
  ],
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
