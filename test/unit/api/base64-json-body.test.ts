// base64JsonBody (src/api/base64-json-body.ts): the sliced body is exactly JSON.stringify of the whole object, its
// announced length is its length, and slices are one event-loop turn apart.
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { base64JsonBody } from '../../../src/api/base64-json-body.js';
import { seeded } from '../../helpers/seeded-random.js';

const SLICE = 3 * 64 * 1024;

function bytes(length: number, random: () => number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(random() * 256);
  return out;
}

describe('base64JsonBody', () => {
  const random = seeded(7);
  const layouts: number[][] = [[], [0], [1], [2], [3], [SLICE], [SLICE - 1, 2], [SLICE + 1], [5, SLICE, 7, 2 * SLICE + 2], [100_000, 100_001, 99_999]];
  for (const layout of layouts) {
    it(`matches JSON.stringify for parts of ${layout.join(', ') || 'nothing'} bytes`, async () => {
      const parts = layout.map((n) => bytes(n, random));
      const rest = { format: 'mp3', duration_seconds: 1.234567, characters_used: 42 };
      const { body, lengthBytes } = base64JsonBody('audio', parts, rest);
      const written = await text(body);
      const expected = JSON.stringify({ audio: Buffer.concat(parts).toString('base64'), ...rest });
      expect(written).toBe(expected);
      expect(Buffer.byteLength(written)).toBe(lengthBytes);
    });
  }

  it('writes only the payload when there is nothing else', async () => {
    const { body } = base64JsonBody('audio', [Uint8Array.of(1, 2, 3, 4)], {});
    expect(await text(body)).toBe('{"audio":"AQIDBA=="}');
  });

  it('lets the event loop turn between slices', async () => {
    const { body } = base64JsonBody('audio', [new Uint8Array(4 * SLICE)], { n: 1 });
    // A chain of immediates advances once per turn of the loop: it can only move while the body is between slices.
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    let slices = 0;
    const turnsAtSlice: number[] = [];
    for await (const piece of body) {
      if ((piece as Buffer).length < SLICE) continue;
      slices++;
      turnsAtSlice.push(turns);
    }
    done = true;
    expect(slices).toBe(4);
    for (let i = 1; i < turnsAtSlice.length; i++) expect(turnsAtSlice[i]!).toBeGreaterThan(turnsAtSlice[i - 1]!);
  });
});
