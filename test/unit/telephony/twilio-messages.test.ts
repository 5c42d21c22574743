// Twilio's Media Streams messages: the zod schemas accept Twilio's numeric strings and extra fields, refuse what is
// not Twilio's, and inbound payloads must be strict base64 of whole 160-byte frames.

import { describe, expect, it } from 'vitest';
import { decodeBase64Audio, decodeJsonFrame } from '../../../src/telephony/json-frames.js';
import { TWILIO_INBOUND, clearMessage, markMessage, mediaMessage } from '../../../src/telephony/twilio/twilio-messages.js';

const parseTwilioMessage = (text: string) => decodeJsonFrame(new TextEncoder().encode(text), false, { sender: 'Twilio', ...TWILIO_INBOUND });

describe('Twilio frames through decodeJsonFrame', () => {
  it('reads the documented start, with numeric strings and custom parameters', () => {
    const parsed = parseTwilioMessage(
      JSON.stringify({
        event: 'start',
        sequenceNumber: '1',
        streamSid: 'MZ18ad3ab5a668481ce02b83e7395059f0',
        start: {
          accountSid: 'AC123',
          streamSid: 'MZ18ad3ab5a668481ce02b83e7395059f0',
          callSid: 'CA123',
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          customParameters: { FirstName: 'Jane' },
        },
      }),
    );
    expect(parsed.ok && parsed.message.event === 'start' && parsed.message.sequenceNumber).toBe(1);
    expect(parsed.ok && parsed.message.event === 'start' && parsed.message.start.customParameters).toEqual({ FirstName: 'Jane' });
  });

  it('media: chunk and timestamp as strings or numbers; unknown extra fields are tolerated', () => {
    for (const [chunk, timestamp] of [['2', '5'], [2, 5]] as const) {
      const parsed = parseTwilioMessage(JSON.stringify({ event: 'media', sequenceNumber: '3', streamSid: 'MZ1', extra: true, media: { track: 'inbound', chunk, timestamp, payload: 'AA==' } }));
      expect(parsed.ok && parsed.message.event === 'media' && [parsed.message.media.chunk, parsed.message.media.timestamp]).toEqual([2, 5]);
    }
  });

  it('dtmf, mark and stop', () => {
    expect(parseTwilioMessage('{"event":"dtmf","streamSid":"MZ1","sequenceNumber":"5","dtmf":{"track":"inbound_track","digit":"#"}}').ok).toBe(true);
    expect(parseTwilioMessage('{"event":"mark","streamSid":"MZ1","sequenceNumber":"4","mark":{"name":"u1.c0.g0"}}').ok).toBe(true);
    expect(parseTwilioMessage('{"event":"stop","sequenceNumber":"5","streamSid":"MZ1","stop":{"accountSid":"AC1","callSid":"CA1"}}').ok).toBe(true);
  });

  it('names the problem: binary, not JSON, unknown event, wrong shape', () => {
    expect(decodeJsonFrame(new Uint8Array([1, 2]), true, { sender: 'Twilio', ...TWILIO_INBOUND })).toEqual({ ok: false, problem: 'binary-frame', detail: 'Twilio sends JSON text frames only' });
    expect(parseTwilioMessage('{oops')).toMatchObject({ ok: false, problem: 'invalid-json' });
    expect(parseTwilioMessage('{"event":"transcript"}')).toMatchObject({ ok: false, problem: 'unknown-event', detail: 'transcript' });
    expect(parseTwilioMessage('[1,2]')).toMatchObject({ ok: false, problem: 'unknown-event' });
    expect(parseTwilioMessage('{"event":"media","media":{}}')).toMatchObject({ ok: false, problem: 'invalid-shape' });
    expect(parseTwilioMessage('{"event":"dtmf","dtmf":{"digit":"12"}}')).toMatchObject({ ok: false, problem: 'invalid-shape' });
    expect(parseTwilioMessage('{"event":"media","sequenceNumber":"-1","media":{"payload":""}}')).toMatchObject({ ok: false, problem: 'invalid-shape' });
  });
});

describe('decodeBase64Audio', () => {
  it('accepts any non-empty payload in strict base64 (the stream re-frames, R10)', () => {
    expect(decodeBase64Audio(Buffer.alloc(160, 0xff).toString('base64'))).toMatchObject({ ok: true });
    expect(decodeBase64Audio(Buffer.alloc(320).toString('base64'))).toMatchObject({ ok: true });
    const odd = decodeBase64Audio(Buffer.alloc(100, 0x7f).toString('base64'));
    expect(odd.ok && [...odd.audio]).toEqual(Array(100).fill(0x7f));
    expect(decodeBase64Audio('')).toEqual({ ok: false, problem: 'empty' });
    expect(decodeBase64Audio('not base64!')).toEqual({ ok: false, problem: 'not-base64' });
    expect(decodeBase64Audio('AAA')).toEqual({ ok: false, problem: 'not-base64' });
  });
});

describe('outbound messages', () => {
  it('are the exact shapes Twilio documents', () => {
    expect(JSON.parse(mediaMessage('MZ1', new Uint8Array([0xff, 0x7f])))).toEqual({ event: 'media', streamSid: 'MZ1', media: { payload: '/38=' } });
    expect(JSON.parse(markMessage('MZ1', 'u1.c0.g0'))).toEqual({ event: 'mark', streamSid: 'MZ1', mark: { name: 'u1.c0.g0' } });
    expect(JSON.parse(clearMessage('MZ1'))).toEqual({ event: 'clear', streamSid: 'MZ1' });
  });
});
