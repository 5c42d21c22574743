// Reading the stream URL and <Parameter>s from TwiML as built by the twilio package.

import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { parseStreamTwiml } from '../../../../src/sim/dialects/twilio-voice-webhook-client.js';

describe('parseStreamTwiml', () => {
  it('reads <Connect><Stream> and its parameters, XML entities decoded', () => {
    const response = new twilio.twiml.VoiceResponse();
    const stream = response.connect().stream({ url: 'wss://example.test/v1/telephony/twilio/media' });
    stream.parameter({ name: 'voice', value: 'meera' });
    stream.parameter({ name: 'greeting', value: 'नमस्ते & "welcome" <1>' });
    stream.parameter({ name: 'empty', value: '' });
    expect(parseStreamTwiml(response.toString())).toEqual({
      streamUrl: 'wss://example.test/v1/telephony/twilio/media',
      parameters: { voice: 'meera', greeting: 'नमस्ते & "welcome" <1>', empty: '' },
    });
  });

  it('refuses TwiML without a bidirectional stream', () => {
    const response = new twilio.twiml.VoiceResponse();
    response.say('hello');
    expect(() => parseStreamTwiml(response.toString())).toThrow(/no <Connect><Stream/);
    const start = new twilio.twiml.VoiceResponse();
    start.start().stream({ url: 'wss://example.test/x' });
    expect(() => parseStreamTwiml(start.toString())).toThrow(/no <Connect><Stream/);
  });
});
