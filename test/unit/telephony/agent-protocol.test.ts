// The agent's messages: /v1/tts/websocket's config/text/cancel/ping (config fixed to 8 kHz mu-law, text with
// utterance_id and interruptible), plus hangup and transfer; everything else is a validation_error.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import { parseAgentMessage } from '../../../src/telephony/agent/agent-protocol.js';

const code = (raw: string) => {
  try {
    parseAgentMessage(raw);
    return 'ok';
  } catch (error) {
    return (error as ApiError).code;
  }
};

describe('parseAgentMessage', () => {
  it('text with an utterance id and interruptible false', () => {
    expect(parseAgentMessage('{"type":"text","text":"नमस्ते","utterance_id":"disclosure-1","interruptible":false}')).toEqual({
      kind: 'session',
      event: { type: 'text', text: 'नमस्ते', utteranceId: 'disclosure-1', interruptible: false },
    });
  });

  it('text_append carries a piece (the opening one its id and interruptible); text_flush has no fields', () => {
    expect(parseAgentMessage('{"type":"text_append","text":"नमस्ते, ","utterance_id":"reply-1","interruptible":false}')).toEqual({
      kind: 'append',
      text: 'नमस्ते, ',
      utteranceId: 'reply-1',
      interruptible: false,
    });
    expect(parseAgentMessage('{"type":"text_append","text":""}')).toEqual({ kind: 'append', text: '', utteranceId: undefined, interruptible: undefined });
    expect(parseAgentMessage('{"type":"text_flush"}')).toEqual({ kind: 'flush' });
    expect(code('{"type":"text_flush","text":"x"}')).toBe('validation_error');
    expect(code('{"type":"text_append"}')).toBe('validation_error');
    expect(code('{"type":"text_append","text":"x","utterance_id":"a#1"}')).toBe('validation_error');
  });

  it('config keeps the call on 8 kHz mu-law', () => {
    expect(parseAgentMessage('{"type":"config","voice":"meera","language":"ta-IN","speed":1.2}')).toEqual({
      kind: 'session',
      event: { type: 'config', config: { modelId: 'raaga-v1', voice: 'meera', language: 'ta-IN', outputFormat: 'mulaw', sampleRateHz: 8000, speed: 1.2 } },
    });
    expect(code('{"type":"config","voice":"meera","language":"ta-IN","output_format":"mp3"}')).toBe('validation_error');
    expect(code('{"type":"config","voice":"meera","language":"ta-IN","model_id":"other"}')).toBe('invalid_model_id');
  });

  it('config may change the barge-in settings; barge_in_verdict names a suspect and a verdict', () => {
    expect(parseAgentMessage('{"type":"config","voice":"meera","language":"hi-IN","barge_in":{"events":2,"long_min_ms":800,"ambiguous_default":"resume"}}')).toMatchObject({
      kind: 'session',
      bargeIn: { events: 2, longMinMs: 800, ambiguousDefault: 'resume' },
    });
    expect(parseAgentMessage('{"type":"barge_in_verdict","suspect_id":"s3","verdict":"resume"}')).toEqual({ kind: 'verdict', suspectId: 's3', verdict: 'resume' });
    for (const bad of [
      '{"type":"barge_in_verdict","suspect_id":"s3","verdict":"maybe"}',
      '{"type":"barge_in_verdict","verdict":"resume"}',
      '{"type":"config","voice":"meera","language":"hi-IN","barge_in":{"events":3}}',
      '{"type":"config","voice":"meera","language":"hi-IN","barge_in":{"short_max":10}}',
    ]) {
      expect(code(bad), bad).toBe('validation_error');
    }
  });

  it('hangup (drains by default) and transfer to a number or SIP URI', () => {
    expect(parseAgentMessage('{"type":"hangup"}')).toEqual({ kind: 'hangup', drain: true });
    expect(parseAgentMessage('{"type":"hangup","drain":false}')).toEqual({ kind: 'hangup', drain: false });
    const none = { callerId: undefined, timeoutS: undefined };
    expect(parseAgentMessage('{"type":"transfer","to":"+918000000099"}')).toEqual({ kind: 'transfer', to: '+918000000099', options: none });
    expect(parseAgentMessage('{"type":"transfer","to":"sip:desk@pbx.example.com"}')).toEqual({ kind: 'transfer', to: 'sip:desk@pbx.example.com', options: none });
    expect(parseAgentMessage('{"type":"transfer","to":"+918000000099","caller_id":"+918000000001","timeout_s":20}')).toEqual({
      kind: 'transfer',
      to: '+918000000099',
      options: { callerId: '+918000000001', timeoutS: 20 },
    });
    expect(code('{"type":"transfer","to":"<Dial>"}')).toBe('validation_error');
    expect(code('{"type":"transfer","to":"+918000000099","caller_id":"<x/>"}')).toBe('validation_error');
    expect(code('{"type":"transfer","to":"+918000000099","timeout_s":601}')).toBe('validation_error');
  });

  it('refuses bad JSON, unknown types and fields, bad ids', () => {
    for (const raw of ['{', '[]', '{"type":"play"}', '{"type":"text","text":"a","voice":"x"}', '{"type":"text","text":"a","utterance_id":"has space"}']) {
      expect(code(raw), raw).toBe('validation_error');
    }
    expect(code('{"type":"cancel","extra":1}')).toBe('ok');
  });
});
