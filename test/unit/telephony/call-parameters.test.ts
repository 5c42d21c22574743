// Call settings as <Parameter>s: layering (server < account < webhook/stream), validation naming the parameter,
// the developer's own parameters kept for the agent, credentials never; and the TwiML that carries them.

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { resolveCallParameters } from '../../../src/telephony/call-parameters.js';
import { dialTwiml, streamTwiml } from '../../../src/telephony/twilio/twiml.js';
import { parseStreamTwiml } from '../../../src/telephony/twilio/voice-webhook-client.js';

const defaults = parseConfig({}).telephony;

describe('resolveCallParameters', () => {
  it('server defaults when nothing is given', () => {
    const resolved = resolveCallParameters(defaults, []);
    expect(resolved.ok && resolved.value).toMatchObject({ voice: 'priya', language: 'hi-IN', bargeIn: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, agentUrl: undefined, greeting: undefined, cache: true });
    const noCache = resolveCallParameters(defaults, [{ cache: 'false' }]);
    expect(noCache.ok && noCache.value.cache).toBe(false);
  });

  it('later layers win; unknown names are custom; credentials are dropped', () => {
    const resolved = resolveCallParameters(defaults, [
      { voice: 'meera', greeting: 'hi' },
      { voice: 'arjun', language: 'te-IN', crm_id: '7', raaga_token: 'secret', raaga_api_key: 'k', agent_url: 'wss://agent.example/a', agent_audio: 'true', greeting_interruptible: 'false' },
    ]);
    expect(resolved.ok && resolved.value).toMatchObject({ voice: 'arjun', language: 'te-IN', greeting: 'hi', agentUrl: 'wss://agent.example/a', agentAudio: true, greetingInterruptible: false, custom: { crm_id: '7' } });
    expect(resolved.ok && resolved.settings).not.toHaveProperty('raaga_token');
  });

  it('names the bad parameter', () => {
    for (const [name, value] of [['barge_in', 'loud'], ['language', 'fr-FR'], ['min_speech_ms', '-1'], ['agent_url', 'http://x'], ['speed', '3'], ['agent_audio', 'yes'], ['cache', 'off']]) {
      const resolved = resolveCallParameters(defaults, [{ [name as string]: value as string }]);
      expect(resolved.ok ? '' : resolved.message).toContain(`'${name}'`);
    }
  });
});

describe('TwiML', () => {
  it('<Connect><Stream> with escaped <Parameter>s, read back by the peer', () => {
    const twiml = streamTwiml({ streamUrl: 'wss://h/v1/telephony/twilio/media', parameters: { greeting: 'A & B <ok> "q"', voice: 'meera' }, statusCallback: 'https://h/s' });
    expect(twiml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Connect><Stream url="wss:\/\/h\/v1\/telephony\/twilio\/media" name="raaga" statusCallback="https:\/\/h\/s" statusCallbackMethod="POST">/);
    expect(parseStreamTwiml(twiml)).toEqual({ streamUrl: 'wss://h/v1/telephony/twilio/media', parameters: { greeting: 'A & B <ok> "q"', voice: 'meera' } });
  });

  it("refuses a parameter over Twilio's 500-character limit", () => {
    expect(() => streamTwiml({ streamUrl: 'wss://h/m', parameters: { greeting: 'x'.repeat(495) } })).toThrow(/500/);
  });

  it('a transfer dials a number or a SIP URI', () => {
    expect(dialTwiml('+918000000099')).toContain('<Dial>+918000000099</Dial>');
    expect(dialTwiml('sip:agent@pbx.example.com')).toContain('<Dial><Sip>sip:agent@pbx.example.com</Sip></Dial>');
  });
});
