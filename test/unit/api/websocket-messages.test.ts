// Client message parsing for /v1/tts/websocket: every type, the config defaults (pcm), and each kind of
// malformed input mapped to a clear validation_error (or the HTTP code the voice/model rules use).

import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '../../../src/api/websocket-messages.js';
import { ApiError } from '../../../src/errors.js';

const config = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'config', model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', ...extra });

function failure(raw: string): ApiError {
  try {
    parseClientMessage(raw);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`parsed: ${raw}`);
}

describe('parseClientMessage', () => {
  it('config with the spec defaults for WebSocket: pcm, 24000 Hz, speed 1', () => {
    expect(parseClientMessage(config())).toEqual({
      type: 'config',
      config: { modelId: 'raaga-v1', voice: 'aarav', language: 'hi-IN', outputFormat: 'pcm', sampleRateHz: 24000, speed: 1 },
    });
  });

  it('config with every option, and the deprecated voice_name alone', () => {
    expect(parseClientMessage(config({ output_format: 'mulaw', sample_rate: 8000, speed: 1.5 }))).toMatchObject({
      config: { outputFormat: 'mulaw', sampleRateHz: 8000, speed: 1.5 },
    });
    const legacy = JSON.stringify({ type: 'config', model_id: 'raaga-v1', voice_name: 'meera', language: 'ta-IN' });
    expect(parseClientMessage(legacy)).toMatchObject({ config: { voice: 'meera', language: 'ta-IN' } });
  });

  it('text, cancel, ping, disconnect', () => {
    expect(parseClientMessage('{"type":"text","text":"नमस्ते"}')).toEqual({ type: 'text', text: 'नमस्ते' });
    expect(parseClientMessage('{"type":"cancel"}')).toEqual({ type: 'cancel' });
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ type: 'ping' });
    expect(parseClientMessage('{"type":"disconnect"}')).toEqual({ type: 'disconnect' });
  });

  it('field-less messages ignore extra fields: nothing may stop a cancel', () => {
    expect(parseClientMessage('{"type":"cancel","context_id":"abc"}')).toEqual({ type: 'cancel' });
  });

  it.each([
    ['not JSON', '{"type":', /not valid JSON/],
    ['an array', '[1,2]', /JSON object/],
    ['a string', '"text"', /JSON object/],
    ['null', 'null', /JSON object/],
    ['no type', '{"text":"hi"}', /type missing/],
    ['unknown type', '{"type":"speak"}', /'speak' is not one of config, text, cancel, ping, disconnect/],
    ['non-string type', '{"type":5}', /type missing/],
    ['text not a string', '{"type":"text","text":5}', /Field 'text'/],
    ['text missing', '{"type":"text"}', /Field 'text' is required/],
    ['unknown text field', '{"type":"text","text":"hi","extra":1}', /Unknown field 'extra'/],
    ['speed out of range', config({ speed: 3 }), /Field 'speed' must be from 0.5 to 2.0/],
    ['bad sample rate', config({ sample_rate: 22050 }), /Field 'sample_rate'/],
    ['bad format', config({ output_format: 'ogg' }), /Field 'output_format'/],
    ['bad language', config({ language: 'fr-FR' }), /Field 'language'/],
    ['typo field', config({ sample_rte: 8000 }), /Unknown field 'sample_rte'/],
    ['voice and voice_name', config({ voice_name: 'aarav' }), /either 'voice' or the deprecated 'voice_name'/],
    ['no voice', JSON.stringify({ type: 'config', model_id: 'raaga-v1', language: 'hi-IN' }), /Field 'voice' is required/],
  ])('%s: validation_error', (_label, raw, message) => {
    const error = failure(raw);
    expect(error.code).toBe('validation_error');
    expect(error.message).toMatch(message);
  });

  it('an unsupported model is invalid_model_id, as over HTTP', () => {
    expect(failure(config({ model_id: 'raaga-v2' })).code).toBe('invalid_model_id');
  });
});
