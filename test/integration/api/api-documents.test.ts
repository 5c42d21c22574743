// The committed docs/openapi.json and docs/asyncapi.json must be exactly what the routes and zod schemas generate
// (OpenAPI through @fastify/swagger over a built app): change a route without `npm run openapi` and this fails.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOCUMENT_FILES } from '../../../src/api/docs/api-documents.js';
import { renderApiDocuments } from '../../../scripts/api-documents-app.js';
import { SynthesisBodySchema } from '../../../src/api/synthesis-request.js';
import { ConfigMessageSchema } from '../../../src/api/websocket-messages.js';

let generated: { openapi: string; asyncapi: string };
beforeAll(async () => {
  generated = await renderApiDocuments();
});
const committed = (name: keyof typeof API_DOCUMENT_FILES) => readFileSync(new URL(`../../../${API_DOCUMENT_FILES[name]}`, import.meta.url), 'utf8');

describe('API documents', () => {
  it.each(Object.keys(API_DOCUMENT_FILES) as (keyof typeof API_DOCUMENT_FILES)[])('committed %s matches the schemas (run `npm run openapi` after changing them)', (name) => {
    expect(committed(name)).toBe(generated[name]);
  });

  it('the OpenAPI request body is the schema the routes validate with', () => {
    const openapi = JSON.parse(generated.openapi);
    const body = openapi.paths['/v1/tts/generate'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(SynthesisBodySchema.shape).sort());
    expect(body.additionalProperties).toBe(false);
    expect(body.required.sort()).toEqual(['language', 'model_id', 'text']);
    expect(body.properties.sample_rate.enum).toEqual([8000, 16000, 24000, 48000]);
    expect(body.properties.output_format.default).toBe('mp3');
    expect(openapi.openapi).toBe('3.1.0');
    for (const path of ['/v1/tts/generate', '/v1/tts/stream', '/v1/voices', '/v1/tts/websocket', '/metrics']) expect(openapi.paths).toHaveProperty([path]);
  });

  it('the AsyncAPI config message is the schema the WebSocket parses with', () => {
    const asyncapi = JSON.parse(generated.asyncapi);
    const config = asyncapi.components.schemas.ConfigMessage;
    expect(Object.keys(config.properties).sort()).toEqual(Object.keys(ConfigMessageSchema.shape).sort());
    expect(config.properties.output_format.default).toBe('pcm');
    expect(asyncapi.asyncapi).toBe('3.0.0');
    const names = (channel: string) => Object.keys(asyncapi.channels[channel].messages).sort();
    expect(names('ttsWebSocket')).toEqual(
      ['audio', 'cancel', 'cancellation', 'config', 'configured', 'connected', 'disconnect', 'end_of_utterance', 'error', 'ping', 'pong', 'text', 'word_timings'].sort(),
    );
    // The agent protocol: what the agent may send comes from the parser's own schema.
    expect(names('callAgent')).toEqual(
      [
        ...['agent_config', 'agent_text', 'agent_text_append', 'agent_text_flush', 'agent_cancel', 'agent_ping', 'agent_hangup', 'agent_transfer', 'agent_gather', 'agent_barge_in_verdict'],
        ...['call_started', 'agent_configured', 'agent_end_of_utterance', 'agent_cancellation', 'agent_error', 'agent_pong'],
        ...['utterance_played', 'speech_started', 'speech_stopped', 'dtmf', 'interrupted', 'interruption_suspected', 'resumed', 'gather_result', 'call_ended', 'caller_audio'],
      ].sort(),
    );
    expect(asyncapi.components.schemas.AgentTextMessage.properties).toHaveProperty('utterance_id');
  });
});
