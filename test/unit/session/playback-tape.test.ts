// The tape a held call resumes from: frames and chunk marks by playout-axis position, trimmed as marks confirm
// playback and never longer than its bound.

import { describe, expect, it } from 'vitest';
import { PlaybackTape } from '../../../src/session/playback-tape.js';

const frame = (fill: number) => new Uint8Array(160).fill(fill);
const mark = (lastChunk: number) => ({ seq: 1, lastChunk, final: false, utteranceMs: 0 });

describe('PlaybackTape', () => {
  it('replays from the frame holding a position, marks in their places', () => {
    const tape = new PlaybackTape(5000);
    tape.recordFrame(0, frame(1), 20);
    tape.recordFrame(20, frame(2), 20);
    tape.recordMark(40, mark(0));
    tape.recordFrame(40, frame(3), 20);
    expect(tape.from(20).map((item) => (item.kind === 'frame' ? item.bytes[0] : 'mark'))).toEqual([2, 'mark', 3]);
    // A position inside a frame replays that whole frame.
    expect(tape.from(30).map((item) => (item.kind === 'frame' ? item.bytes[0] : 'mark'))).toEqual([2, 'mark', 3]);
    expect(tape.from(40).map((item) => (item.kind === 'frame' ? item.bytes[0] : 'mark'))).toEqual(['mark', 3]);
  });

  it('drops what played, keeping a mark that sits exactly at the confirmed position', () => {
    const tape = new PlaybackTape(5000);
    tape.recordFrame(0, frame(1), 20);
    tape.recordFrame(20, frame(2), 20);
    tape.recordMark(40, mark(0));
    tape.recordFrame(40, frame(3), 20);
    tape.trimBefore(40);
    expect(tape.from(0).map((item) => [item.kind, item.atMs])).toEqual([['mark', 40], ['frame', 40]]);
    tape.trimBefore(60);
    expect(tape.from(0)).toEqual([]);
  });

  it('never keeps more than its bound behind the head', () => {
    const tape = new PlaybackTape(100);
    for (let i = 0; i < 20; i++) tape.recordFrame(i * 20, frame(i), 20);
    // 100 ms behind the head (400 ms): the frames from 300 ms on.
    expect(tape.from(0).map((item) => item.atMs)).toEqual([300, 320, 340, 360, 380]);
    tape.clear();
    expect(tape.from(0)).toEqual([]);
  });
});
