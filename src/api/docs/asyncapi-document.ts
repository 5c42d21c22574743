// The AsyncAPI 3.0 document of Raaga's two WebSocket protocols, from the zod schemas their messages are parsed with
// and those of what Raaga sends: /v1/tts/websocket (clients dial Raaga) and the call agent protocol (Raaga dials
// the call's agent_url). Prose, states and decisions stay in docs/websocket.md and docs/telephony.md.

import type { z } from 'zod';
import { AgentMessageSchema } from '../../telephony/agent/agent-protocol.js';
import {
  AgentCancellationSchema,
  AgentEndOfUtteranceSchema,
  AgentErrorSchema,
  CallEndedSchema,
  CallStartedSchema,
  DtmfSchema,
  GatherResultSchema,
  InterruptedSchema,
  InterruptionSuspectedSchema,
  ResumedSchema,
  SpeechStartedSchema,
  SpeechStoppedSchema,
  UtterancePlayedSchema,
} from '../call-agent-messages.js';
import { CancelMessageSchema, ConfigMessageSchema, DisconnectMessageSchema, PingMessageSchema, TextMessageSchema } from '../websocket-messages.js';
import {
  CancellationMessageSchema,
  ConfiguredMessageSchema,
  ConnectedMessageSchema,
  EndOfUtteranceMessageSchema,
  ErrorMessageSchema,
  PongMessageSchema,
  WordTimingsMessageSchema,
} from '../websocket-server-messages.js';
import { namedJsonSchemas } from './json-schemas.js';

type Json = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';

/** One message of a channel: its schema name, its schema, and one line on when it flows. */
interface MessageDoc {
  readonly schemaName: string;
  readonly schema: z.ZodType;
  readonly summary: string;
}

const TTS_CLIENT: Record<string, MessageDoc> = {
  config: { schemaName: 'ConfigMessage', schema: ConfigMessageSchema, summary: 'First message: model, voice, language, format (default pcm), sample rate, speed. Answered by configured; may be sent again between utterances.' },
  text: { schemaName: 'TextMessage', schema: TextMessageSchema, summary: 'One sentence (≤ 3000 code points). Audio frames follow, then end_of_utterance. Refused while an utterance is running.' },
  cancel: { schemaName: 'CancelMessage', schema: CancelMessageSchema, summary: 'Stop the current utterance now; always answered by exactly one cancellation.' },
  ping: { schemaName: 'PingMessage', schema: PingMessageSchema, summary: 'Keepalive: resets the 60 s idle timer; answered by pong.' },
  disconnect: { schemaName: 'DisconnectMessage', schema: DisconnectMessageSchema, summary: 'Clean close: the server closes with 1000.' },
};

const TTS_SERVER: Record<string, MessageDoc> = {
  connected: { schemaName: 'ConnectedMessage', schema: ConnectedMessageSchema, summary: 'Once, after authentication.' },
  configured: { schemaName: 'ConfiguredMessage', schema: ConfiguredMessageSchema, summary: 'The accepted config, echoed.' },
  word_timings: { schemaName: 'WordTimingsMessage', schema: WordTimingsMessageSchema, summary: "Raaga's extension, only after config.word_timings: true: the words of the clause whose frames were just sent, each with start_ms and end_ms from the start of the utterance's audio. None for engines without word timings." },
  end_of_utterance: { schemaName: 'EndOfUtteranceMessage', schema: EndOfUtteranceMessageSchema, summary: 'After the last audio frame of an utterance.' },
  cancellation: { schemaName: 'CancellationMessage', schema: CancellationMessageSchema, summary: 'Answers a cancel; no frame of that utterance follows it.' },
  pong: { schemaName: 'PongMessage', schema: PongMessageSchema, summary: 'Answers a ping.' },
  error: { schemaName: 'ErrorMessage', schema: ErrorMessageSchema, summary: 'One message could not be served; the connection stays open.' },
};

const AGENT_SUMMARIES: Record<string, string> = {
  config: "Replaces the call's voice, language or speed while idle (the audio stays 8 kHz mu-law); answered by configured.",
  text: 'Queued behind what is speaking (up to 16) and spoken in order; one end_of_utterance, cancellation or error each.',
  text_append:
    'Streamed text (an LLM\'s tokens as they arrive): appended to the open streamed utterance, or opens one (utterance_id, interruptible). Each sentence or clause is spoken as soon as it is whole; at most 3000 code points per streamed utterance. One end_of_utterance, cancellation or error answers the whole.',
  text_flush: 'Ends the open streamed utterance: what is pending is spoken last; nothing open: ignored. Whole texts sent meanwhile play after it.',
  cancel: "Stops what is speaking, drops the queue, clears Twilio's buffer.",
  ping: 'Answered by pong.',
  hangup: 'Ends the call, after what is queued has played unless drain is false.',
  transfer: 'Transfers the call to a number or SIP URI (caller_id and timeout_s where the provider dials: Twilio, Plivo).',
  gather: 'Collects keys: speaks prompt (if any), then takes digits until finish_on_key, num_digits or a timeout; answered by gather_result. Keys go to the gather, not to barge-in; one cuts an interruptible prompt.',
  barge_in_verdict: 'barge_in_events=2, while a suspect is held: interrupt commits it, resume re-sends the held audio once the caller stops. Late: error validation_error.',
};

const pascal = (name: string): string => name.replace(/(^|_)([a-z])/g, (_m, _sep, letter: string) => letter.toUpperCase());

const FROM_AGENT: Record<string, MessageDoc> = Object.fromEntries(
  AgentMessageSchema.options.map((schema) => {
    const type = schema.shape.type.value;
    return [`agent_${type}`, { schemaName: `Agent${pascal(type)}Message`, schema, summary: AGENT_SUMMARIES[type] ?? type }];
  }),
);

const TO_AGENT: Record<string, MessageDoc> = {
  call_started: { schemaName: 'CallStartedEvent', schema: CallStartedSchema, summary: 'First, once the socket is open.' },
  agent_configured: { schemaName: 'ConfiguredMessage', schema: ConfiguredMessageSchema, summary: 'Answers config.' },
  agent_end_of_utterance: { schemaName: 'AgentEndOfUtteranceMessage', schema: AgentEndOfUtteranceSchema, summary: 'The last frame of the text was sent (heard about TELEPHONY_PLAYOUT_AHEAD_MS later).' },
  agent_cancellation: { schemaName: 'AgentCancellationMessage', schema: AgentCancellationSchema, summary: 'The text was cancelled (cancel, barge-in) or dropped from the queue.' },
  agent_error: { schemaName: 'AgentErrorMessage', schema: AgentErrorSchema, summary: 'A message or text could not be served; the call goes on.' },
  agent_pong: { schemaName: 'PongMessage', schema: PongMessageSchema, summary: 'Answers ping.' },
  utterance_played: { schemaName: 'UtterancePlayedEvent', schema: UtterancePlayedSchema, summary: 'Twilio confirmed the whole utterance played.' },
  speech_started: { schemaName: 'SpeechStartedEvent', schema: SpeechStartedSchema, summary: 'Caller speech confirmed, whether or not it interrupts.' },
  speech_stopped: { schemaName: 'SpeechStoppedEvent', schema: SpeechStoppedSchema, summary: 'The caller paused.' },
  dtmf: { schemaName: 'DtmfEvent', schema: DtmfSchema, summary: 'A key press.' },
  interruption_suspected: {
    schemaName: 'InterruptionSuspectedEvent',
    schema: InterruptionSuspectedSchema,
    summary: 'barge_in_events=2: caller sound held the bot; resumed or interrupted follows (a barge_in_verdict may decide it).',
  },
  resumed: { schemaName: 'ResumedEvent', schema: ResumedSchema, summary: 'barge_in_events=2: the hold ended without an interruption; the utterance goes on.' },
  interrupted: { schemaName: 'InterruptedEvent', schema: InterruptedSchema, summary: 'Audio of that utterance was cut (one per utterance cut).' },
  gather_result: { schemaName: 'GatherResultEvent', schema: GatherResultSchema, summary: 'A gather was decided: its digits and why it ended.' },
  call_ended: { schemaName: 'CallEndedEvent', schema: CallEndedSchema, summary: 'Last message; then Raaga closes the socket.' },
};

const BINARY: Record<string, Json> = {
  audio: {
    name: 'audio',
    summary:
      'A binary frame of audio in the configured format: 40 ms of pcm/mulaw/wav (wav starts each utterance with a 44-byte header), ' +
      '2048 bytes of mp3. Reassemble in arrival order.',
    contentType: 'application/octet-stream',
    payload: { type: 'string', format: 'binary' },
  },
  caller_audio: {
    name: 'caller_audio',
    summary: "160 bytes of the caller's 8 kHz mu-law every 20 ms, only when the call has agent_audio=true.",
    contentType: 'application/octet-stream',
    payload: { type: 'string', format: 'binary' },
  },
};

function schemasOf(docs: readonly Record<string, MessageDoc>[]): Record<string, z.ZodType> {
  return Object.fromEntries(docs.flatMap((group) => Object.values(group).map((doc) => [doc.schemaName, doc.schema])));
}

function messagesOf(docs: Record<string, MessageDoc>): Json {
  return Object.fromEntries(
    Object.entries(docs).map(([key, doc]) => [
      key,
      { name: key.replace(/^agent_/, ''), summary: doc.summary, contentType: 'application/json', payload: { $ref: `${SCHEMAS}${doc.schemaName}` } },
    ]),
  );
}

const refs = (channel: string, keys: readonly string[]): Json[] => keys.map((key) => ({ $ref: `#/channels/${channel}/messages/${key}` }));
const channelMessages = (keys: readonly string[]): Json => Object.fromEntries(keys.map((key) => [key, { $ref: `#/components/messages/${key}` }]));

export function buildAsyncApiDocument(): Json {
  const schemas = {
    ...namedJsonSchemas(schemasOf([TTS_CLIENT, FROM_AGENT]), 'input', SCHEMAS),
    ...namedJsonSchemas(schemasOf([TTS_SERVER, TO_AGENT]), 'output', SCHEMAS),
  };
  const messages = { ...messagesOf(TTS_CLIENT), ...messagesOf(TTS_SERVER), ...messagesOf(FROM_AGENT), ...messagesOf(TO_AGENT), ...BINARY };
  const ttsKeys = [...Object.keys(TTS_CLIENT), ...Object.keys(TTS_SERVER), 'audio'];
  const agentKeys = [...Object.keys(TO_AGENT), 'caller_audio', ...Object.keys(FROM_AGENT)];
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Raaga WebSocket protocols',
      version: 'v1',
      description:
        '`ttsWebSocket` (/v1/tts/websocket): one session speaks one sentence per `text` message and streams the audio back as binary ' +
        'frames; `cancel` stops it at once. Close codes: 1000 normal or idle timeout (60 s), 1007 invalid ' +
        'UTF-8, 1008 slow reader or flood, 1009 message over 64 KiB, 1011 session lost or server shutting down (reconnect), 4001 authentication failed, 4002 ' +
        'internal error. Guide: docs/websocket.md. `callAgent`: during a phone call Raaga connects to the call\'s `agent_url` and ' +
        'exchanges call events and words with it. Guide: docs/telephony.md ("Agent protocol"). Generated from the server\'s zod schemas (`npm run openapi`).',
    },
    defaultContentType: 'application/json',
    servers: {
      raaga: {
        host: 'localhost:8080',
        protocol: 'ws',
        description: 'Your Raaga server (wss behind TLS).',
        security: [{ $ref: '#/components/securitySchemes/apiKey' }, { $ref: '#/components/securitySchemes/browserKey' }],
      },
      agent: {
        host: 'agent.example.com',
        protocol: 'wss',
        description: "Your conversational agent: the call's agent_url, which Raaga dials (User-Agent raaga-telephony, X-Raaga-Call-Sid).",
      },
    },
    channels: {
      ttsWebSocket: {
        address: '/v1/tts/websocket',
        title: 'Synthesis session',
        servers: [{ $ref: '#/servers/raaga' }],
        messages: channelMessages(ttsKeys),
        bindings: {
          ws: {
            method: 'GET',
            headers: {
              type: 'object',
              properties: {
                Authorization: { type: 'string', description: 'Bearer <API key>.' },
                'Sec-WebSocket-Protocol': { type: 'string', description: 'Browsers, instead of Authorization: `raaga, raaga.key.<API key>`; the server selects `raaga`.' },
              },
            },
          },
        },
      },
      callAgent: {
        address: null,
        title: "A phone call's agent link (the call's agent_url)",
        servers: [{ $ref: '#/servers/agent' }],
        messages: channelMessages(agentKeys),
      },
    },
    operations: {
      receiveClientMessages: { action: 'receive', title: 'Messages a /v1/tts/websocket client sends', channel: { $ref: '#/channels/ttsWebSocket' }, messages: refs('ttsWebSocket', Object.keys(TTS_CLIENT)) },
      sendServerMessages: { action: 'send', title: 'Messages Raaga sends on /v1/tts/websocket', channel: { $ref: '#/channels/ttsWebSocket' }, messages: refs('ttsWebSocket', [...Object.keys(TTS_SERVER), 'audio']) },
      sendToAgent: { action: 'send', title: 'Messages Raaga sends a call\'s agent', channel: { $ref: '#/channels/callAgent' }, messages: refs('callAgent', [...Object.keys(TO_AGENT), 'caller_audio']) },
      receiveFromAgent: { action: 'receive', title: 'Messages a call\'s agent sends Raaga', channel: { $ref: '#/channels/callAgent' }, messages: refs('callAgent', Object.keys(FROM_AGENT)) },
    },
    components: {
      schemas,
      messages,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key> on the upgrade request.' },
        browserKey: {
          type: 'httpApiKey',
          name: 'Sec-WebSocket-Protocol',
          in: 'header',
          description: 'For browsers, which cannot set Authorization on a WebSocket: offer the subprotocols `raaga` and `raaga.key.<API key>`.',
        },
      },
    },
  };
}
