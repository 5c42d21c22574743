// Asterisk chan_websocket (Asterisk 20.16+, 21.11+, 22.6+, 23) as stream events: media in binary frames in the
// channel's codec (ulaw, or slin/slin16), control as text frames, either plain (`MEDIA_START connection_id:…
// channel_id:… format:ulaw`) or JSON (`{"event":"MEDIA_START",…}`); commands are answered in the form Asterisk
// speaks. MARK_MEDIA → MEDIA_MARK_PROCESSED acknowledges playback; FLUSH_MEDIA drops queued frames and silently
// drops queued marks (the ledger copes). Every message stays far under Asterisk's 65,500-byte limit (one 20 ms
// frame per binary message). Sources: asterisk/documentation WebSocket.md, asterisk/asterisk channels/chan_websocket.c.

import { frameText } from '../json-frames.js';
import type { DecodeResult, StreamCodec, WireEncoding, WireFrame } from '../stream-events.js';
import { OutboundTranscoder } from '../wire-audio.js';

/** Asterisk closes the socket and hangs up on a larger message. */
export const ASTERISK_MAX_MESSAGE_BYTES = 65_500;
/** Control messages are at most 128 bytes. */
const MAX_CONTROL_BYTES = 128;

const FORMATS: Readonly<Record<string, { encoding: WireEncoding; sampleRateHz: number }>> = {
  ulaw: { encoding: 'mulaw', sampleRateHz: 8000 },
  slin: { encoding: 'pcm16', sampleRateHz: 8000 },
  slin16: { encoding: 'pcm16', sampleRateHz: 16000 },
};

type Control = { readonly name: string; readonly fields: Readonly<Record<string, unknown>> };

export class AsteriskCodec implements StreamCodec {
  #json = false;
  #started = false;
  #out = new OutboundTranscoder({ encoding: 'mulaw', sampleRateHz: 8000 });

  decode(data: Uint8Array, isBinary: boolean): DecodeResult {
    if (isBinary) {
      if (data.length === 0) return { ok: false, problem: 'empty', detail: 'empty media frame' };
      // Copied: the socket's buffer is reused for the next frame.
      return { ok: true, event: { type: 'audio', audio: data.slice(), atMs: undefined } };
    }
    const control = this.#readControl(frameText(data));
    if (!control) return { ok: false, problem: 'invalid-control', detail: 'neither a plain nor a JSON control message' };
    const { name, fields } = control;
    switch (name) {
      case 'MEDIA_START': {
        const format = String(fields.format ?? 'ulaw');
        const known = FORMATS[format];
        const callId = String(fields.channel_id ?? fields.connection_id ?? '');
        if (!callId) return { ok: false, problem: 'invalid-shape', detail: 'MEDIA_START without channel_id' };
        if (known) this.#out = new OutboundTranscoder(known);
        this.#started = true;
        const variables = typeof fields.channel_variables === 'object' && fields.channel_variables !== null ? (fields.channel_variables as Record<string, unknown>) : {};
        return {
          ok: true,
          event: {
            type: 'start',
            start: {
              callId,
              streamId: String(fields.connection_id ?? callId),
              providerAccountId: '',
              from: typeof variables.CALLERID_NUM === 'string' ? variables.CALLERID_NUM : undefined,
              to: typeof variables.EXTEN === 'string' ? variables.EXTEN : undefined,
              parameters: {},
              encoding: known?.encoding ?? 'mulaw',
              sampleRateHz: known?.sampleRateHz ?? 8000,
              unsupportedFormat: known ? undefined : format,
            },
          },
        };
      }
      case 'DTMF_END': {
        const digit = String(fields.digit ?? '');
        if (!/^[0-9*#A-Da-d]$/.test(digit)) return { ok: false, problem: 'invalid-shape', detail: 'DTMF_END without a digit' };
        return { ok: true, event: { type: 'dtmf', digit: digit.toUpperCase() } };
      }
      case 'MEDIA_MARK_PROCESSED': {
        const id = fields.correlation_id;
        if (typeof id !== 'string' || id === '') return { ok: false, problem: 'invalid-shape', detail: 'MEDIA_MARK_PROCESSED without correlation_id' };
        return { ok: true, event: { type: 'played', name: id } };
      }
      case 'HANGUP':
      case 'MEDIA_END':
        return { ok: true, event: { type: 'stop', reason: 'hangup' } };
      case 'MEDIA_XOFF':
      case 'MEDIA_XON':
      case 'QUEUE_DRAINED':
      case 'STATUS':
      case 'MEDIA_BUFFERING_COMPLETED':
        return { ok: true, event: { type: 'notice', what: name } };
      case 'ERROR':
        return { ok: false, problem: 'asterisk-error', detail: String(fields.message ?? fields.error ?? 'ERROR notification') };
      default:
        return { ok: false, problem: 'unknown-event', detail: name.slice(0, 40) };
    }
  }

  media(mulaw: Uint8Array): WireFrame[] {
    return this.#started ? [this.#out.encode(mulaw)] : [];
  }

  mark(name: string, _final: boolean): WireFrame[] {
    return [this.#command('MARK_MEDIA', name)];
  }

  clear(): WireFrame[] {
    return [this.#command('FLUSH_MEDIA')];
  }

  hangup(): WireFrame[] {
    return [this.#command('HANGUP')];
  }

  /** A command in the form Asterisk uses on this socket (JSON once it spoke JSON). */
  #command(command: string, correlationId?: string): string {
    const text = this.#json
      ? JSON.stringify(correlationId === undefined ? { command } : { command, correlation_id: correlationId })
      : correlationId === undefined
        ? command
        : `${command} correlation_id:${correlationId}`;
    if (Buffer.byteLength(text) > MAX_CONTROL_BYTES) throw new RangeError(`Asterisk control message over ${MAX_CONTROL_BYTES} bytes`);
    return text;
  }

  #readControl(text: string): Control | undefined {
    const trimmed = text.trim();
    if (trimmed.startsWith('{')) {
      try {
        const value = JSON.parse(trimmed) as Record<string, unknown>;
        const name = value.event ?? value.type;
        if (typeof name !== 'string') return undefined;
        this.#json = true;
        return { name, fields: value };
      } catch {
        return undefined;
      }
    }
    const [name, ...rest] = trimmed.split(/\s+/);
    if (!name || !/^[A-Z_]+$/.test(name)) return undefined;
    const fields: Record<string, string> = {};
    for (const part of rest) {
      const at = part.indexOf(':');
      // A bare word is the correlation id (MEDIA_MARK_PROCESSED <id>, as older builds send it).
      if (at < 0) fields.correlation_id ??= part;
      else fields[part.slice(0, at)] = part.slice(at + 1);
    }
    return { name, fields };
  }
}
