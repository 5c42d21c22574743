// The simulated caller's ear: Twilio's playout rules for media, marks and clear, on explicit times.

import { describe, expect, it } from 'vitest';
import { PlayoutBuffer } from '../../../src/sim/playout-buffer.js';

const ms = (duration: number, byte = 0x10): Uint8Array => new Uint8Array(duration * 8).fill(byte);

describe('PlayoutBuffer', () => {
  it('echoes a mark when the audio sent before it has played, and at once when nothing is buffered', () => {
    const playout = new PlayoutBuffer();
    expect(playout.mark('empty', 0)).toBe(true);
    playout.media(ms(400), 100);
    expect(playout.mark('clause-1', 110)).toBe(false);
    playout.media(ms(200), 120);
    expect(playout.mark('clause-2', 130)).toBe(false);
    expect(playout.nextMarkDueMs()).toBe(500);
    expect(playout.dueMarks(499)).toEqual([]);
    expect(playout.dueMarks(500)).toEqual(['clause-1']);
    expect(playout.bufferedMs(600)).toBe(100);
    expect(playout.dueMarks(800)).toEqual(['clause-2']);
    expect(playout.pendingMarks).toBe(0);
  });

  it('clear drops the unplayed audio and hands back every pending mark at once', () => {
    const playout = new PlayoutBuffer();
    playout.media(ms(1000, 0x20), 0);
    playout.mark('a', 0);
    playout.media(ms(1000, 0x30), 0);
    playout.mark('b', 0);
    expect(playout.clear(300)).toEqual(['a', 'b']);
    expect(playout.bufferedMs(300)).toBe(0);
    expect(playout.stats).toMatchObject({ receivedMs: 2000, clearedMs: 1700, underruns: 0 });
    // New audio after the clear starts at once and is no underrun.
    playout.media(ms(100, 0x40), 350);
    expect(playout.stats.underruns).toBe(0);
    const heard = playout.heard(500);
    expect(heard.length).toBe(4000);
    expect(heard[0]).toBe(0x20);
    expect(heard[300 * 8 - 1]).toBe(0x20);
    expect(heard[300 * 8]).toBe(0xff);
    expect(heard[350 * 8]).toBe(0x40);
    expect(heard[450 * 8]).toBe(0xff);
  });

  it('counts an underrun when audio runs dry inside a clause, not at a mark', () => {
    const playout = new PlayoutBuffer();
    playout.media(ms(100), 0);
    expect(playout.media(ms(100), 130)).toBe(30);
    expect(playout.stats).toMatchObject({ underruns: 1, maxLateMs: 30 });
    playout.mark('clause', 140);
    playout.media(ms(100), 400);
    expect(playout.stats.underruns).toBe(1);
    // Sent ahead of time: queued behind what is playing, never late.
    expect(playout.media(ms(100), 450)).toBe(0);
    expect(playout.stats.underruns).toBe(1);
  });

  it('forgives lateness up to its tolerance', () => {
    const playout = new PlayoutBuffer(10);
    playout.media(ms(20), 0);
    playout.media(ms(20), 25);
    playout.media(ms(20), 65);
    expect(playout.stats).toMatchObject({ underruns: 1, maxLateMs: 20 });
  });
});
