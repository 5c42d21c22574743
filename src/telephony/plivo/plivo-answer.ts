// The answer XML Plivo fetches for an inbound call: a bidirectional <Stream> to Raaga's media endpoint, mu-law
// 8 kHz (what the call speaks, so no transcoding), keepCallAlive so the call lives as long as the stream. The call
// token travels in the stream URL's path (Plivo's extraHeaders allow only [A-Za-z0-9]), the call's settings in its
// query. https://docs.plivo.com/docs/voice/xml/audiostream. A transfer's XML dials the target
// (https://www.plivo.com/docs/voice/xml/dial).

import type { TransferOptions } from '../../session/call-events.js';
import { escapeXml } from '../../util/xml-entities.js';

export interface PlivoStreamXml {
  /** wss://host/v1/telephony/plivo/media/{account}/{token}?settings… */
  readonly streamUrl: string;
  readonly statusCallbackUrl: string;
}

export function plivoStreamXml(spec: PlivoStreamXml): string {
  const attributes = [
    'bidirectional="true"',
    'audioTrack="inbound"',
    'keepCallAlive="true"',
    'contentType="audio/x-mulaw;rate=8000"',
    `statusCallbackUrl="${escapeXml(spec.statusCallbackUrl)}"`,
    'statusCallbackMethod="POST"',
  ].join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Stream ${attributes}>${escapeXml(spec.streamUrl)}</Stream></Response>`;
}

/** What Plivo runs for a transferred call: dial the target, a phone number or a SIP URI (as the agent protocol allows). */
export function plivoDialXml(to: string, options: TransferOptions = {}): string {
  const target = /^sips?:/.test(to) ? `<User>${escapeXml(to)}</User>` : `<Number>${escapeXml(to)}</Number>`;
  const attributes = [
    ...(options.callerId !== undefined ? [` callerId="${escapeXml(options.callerId)}"`] : []),
    ...(options.timeoutS !== undefined ? [` timeout="${options.timeoutS}"`] : []),
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Dial${attributes}>${target}</Dial></Response>`;
}

/**
 * A call this server cannot take now (its call limit, or shedding load): Plivo hangs up with the busy cause before
 * answering (https://www.plivo.com/docs/voice/xml/hangup), so the caller hears busy and no stream opens.
 */
export function plivoBusyXml(): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Hangup reason="busy"/></Response>';
}
