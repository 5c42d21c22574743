// Re-framing and transcoding between the wire and the call: any message size in, whole 20 ms mu-law frames out,
// nothing dropped (R10); PCM16 (8/16 kHz) decoded to the same mu-law the call would have got.

import { describe, expect, it } from 'vitest';
import { mulawToPcm16, pcm16ToMulaw } from '../../../src/audio/mulaw.js';
import { bytesLEToPcm16, pcm16ToBytesLE } from '../../../src/audio/pcm.js';
import { InboundFramer, isSupportedWireFormat, OutboundTranscoder } from '../../../src/telephony/wire-audio.js';

const ramp = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 256);

describe('InboundFramer', () => {
  it('mu-law of any size: every byte comes out once, in order, in 160-byte frames; the remainder waits', () => {
    const framer = new InboundFramer({ encoding: 'mulaw', sampleRateHz: 8000 });
    const input = ramp(1000);
    const out: number[] = [];
    const ends: number[] = [];
    let at = 0;
    for (const size of [100, 37, 463, 400]) {
      for (const frame of framer.push(input.subarray(at, at + size), undefined)) {
        expect(frame.mulaw).toHaveLength(160);
        out.push(...frame.mulaw);
        ends.push(frame.endMs);
      }
      at += size;
    }
    // 1000 bytes = 6 whole frames (960 B); 40 B wait for the next message.
    expect(out).toEqual([...input.subarray(0, 960)]);
    expect(ends).toEqual([20, 40, 60, 80, 100, 120]);
    const next = framer.push(ramp(120), undefined);
    expect([...next[0]!.mulaw]).toEqual([...input.subarray(960, 1000), ...ramp(120)]);
  });

  it("a provider timestamp after a gap re-anchors the frames' times", () => {
    const framer = new InboundFramer({ encoding: 'mulaw', sampleRateHz: 8000 });
    expect(framer.push(ramp(800), 0).map((f) => f.endMs)).toEqual([20, 40, 60, 80, 100]);
    // 100 ms of audio lost in the network: the next message says it starts at 200 ms.
    expect(framer.push(ramp(320), 200).map((f) => f.endMs)).toEqual([220, 240]);
  });

  it('PCM16 little-endian at 8 kHz, split mid-sample, decodes to the mu-law of the same samples', () => {
    const samples = Int16Array.from({ length: 480 }, (_, i) => Math.round(8000 * Math.sin(i / 5)));
    const bytes = pcm16ToBytesLE(samples).slice();
    const framer = new InboundFramer({ encoding: 'pcm16', sampleRateHz: 8000 });
    const frames = [...framer.push(bytes.subarray(0, 333), 0), ...framer.push(bytes.subarray(333), undefined)];
    expect(frames).toHaveLength(3);
    expect(frames.flatMap((f) => [...f.mulaw])).toEqual([...pcm16ToMulaw(samples)]);
  });

  it('PCM16 at 16 kHz is resampled to the call rate: 40 ms in, two 20 ms frames out', () => {
    const framer = new InboundFramer({ encoding: 'pcm16', sampleRateHz: 16000 });
    const tone = Int16Array.from({ length: 640 * 4 }, (_, i) => Math.round(10000 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
    const frames = framer.push(pcm16ToBytesLE(tone).slice(), 0);
    expect(frames.length).toBeGreaterThanOrEqual(7);
    const decoded = mulawToPcm16(frames[4]!.mulaw);
    const peak = Math.max(...decoded.map(Math.abs));
    expect(peak).toBeGreaterThan(8000);
  });
});

describe('OutboundTranscoder and formats', () => {
  it('mu-law passes through; PCM16 8 kHz is the decoded mu-law, 320 bytes per frame', () => {
    const frame = ramp(160);
    expect(new OutboundTranscoder({ encoding: 'mulaw', sampleRateHz: 8000 }).encode(frame)).toBe(frame);
    const pcm = new OutboundTranscoder({ encoding: 'pcm16', sampleRateHz: 8000 });
    expect(pcm.frameBytes).toBe(320);
    expect([...bytesLEToPcm16(pcm.encode(frame))]).toEqual([...mulawToPcm16(frame)]);
    expect([...pcm.silence(4)]).toEqual([0, 0, 0, 0]);
    expect([...new OutboundTranscoder({ encoding: 'mulaw', sampleRateHz: 8000 }).silence(2)]).toEqual([0xff, 0xff]);
  });

  it('supports mu-law at 8 kHz and PCM16 at 8, 16 and 24 kHz only', () => {
    expect(isSupportedWireFormat({ encoding: 'mulaw', sampleRateHz: 8000 })).toBe(true);
    expect(isSupportedWireFormat({ encoding: 'mulaw', sampleRateHz: 16000 })).toBe(false);
    expect(isSupportedWireFormat({ encoding: 'pcm16', sampleRateHz: 16000 })).toBe(true);
    expect(isSupportedWireFormat({ encoding: 'pcm16', sampleRateHz: 11025 })).toBe(false);
  });
});
