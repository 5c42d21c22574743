// Call settings as <Parameter>s: layering (server < account < webhook/stream), validation naming the parameter,
// the developer's own parameters kept for the agent, credentials never; and the TwiML that carries them.

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { resolveCallParameters } from '../../../src/telephony/call-parameters.js';
import { dialTwiml, streamTwiml } from '../../../src/telephony/twilio/twiml.js';
import { parseStreamTwiml } from '../../../src/sim/dialects/twilio-voice-webhook-client.js';

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

  it('barge-in holds: on by default with the documented policy; each setting per call; short_max_ms within long_min_ms', () => {
    const resolved = resolveCallParameters(defaults, []);
    expect(resolved.ok && resolved.value).toMatchObject({
      bargeInSuspect: 'vad',
      bargeInEvents: 1,
      bargeInPolicy: { shortMaxMs: 250, longMinMs: 500, verdictDeadlineMs: 400, ambiguousDefault: 'interrupt', maxHoldMs: 1500 },
    });
    const custom = resolveCallParameters(defaults, [
      { barge_in_suspect: 'off', barge_in_events: '2', short_max_ms: '200', long_min_ms: '700', verdict_deadline_ms: '300', ambiguous_default: 'resume', max_hold_ms: '2000' },
    ]);
    expect(custom.ok && custom.value).toMatchObject({
      bargeInSuspect: 'off',
      bargeInEvents: 2,
      bargeInPolicy: { shortMaxMs: 200, longMinMs: 700, verdictDeadlineMs: 300, ambiguousDefault: 'resume', maxHoldMs: 2000 },
    });
    const crossed = resolveCallParameters(defaults, [{ short_max_ms: '600' }]);
    expect(crossed.ok ? '' : crossed.message).toBe("call parameter 'short_max_ms' (600) must not exceed 'long_min_ms' (500)");
    const off = resolveCallParameters(parseConfig({ TELEPHONY_BARGE_IN_SUSPECT: 'off' }).telephony, []);
    expect(off.ok && off.value.bargeInSuspect).toBe('off');
  });

  it('names the bad parameter', () => {
    for (const [name, value] of [['barge_in_suspect', 'fast'], ['barge_in_events', '3'], ['ambiguous_default', 'maybe'], ['max_hold_ms', '50'], ['long_min_ms', 'x'], ['barge_in', 'loud'], ['language', 'fr-FR'], ['min_speech_ms', '-1'], ['agent_url', 'http://x'], ['speed', '3'], ['agent_audio', 'yes'], ['cache', 'off']]) {
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
