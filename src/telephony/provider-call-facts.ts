// What a provider's webhook says about a call beyond its numbers, as call settings the agent gets in `call_started`:
// who placed it and, when it was placed with answering-machine detection, who answered (the agent greets
// a person and leaves a message for a machine).
// Twilio: Direction inbound | outbound-api | outbound-dial; AnsweredBy human | machine_start | machine_end_beep |
// machine_end_silence | machine_end_other | fax | unknown (https://www.twilio.com/docs/voice/answering-machine-detection).
// Plivo: Direction inbound | outbound (https://www.plivo.com/docs/voice/xml/request-parameters).

import type { CallDirection } from '../session/call-events.js';
import type { AnsweredBy } from '../store/outbound-call.js';

type Form = Readonly<Record<string, string | undefined>>;

function direction(value: string | undefined): CallDirection | undefined {
  if (value === 'inbound') return 'inbound';
  if (value?.startsWith('outbound')) return 'outbound';
  return undefined;
}

function answeredBy(value: string | undefined): AnsweredBy | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'human' || value === 'fax' || value === 'unknown') return value;
  return value.startsWith('machine') ? 'machine' : 'unknown';
}

/** Who answered, by Twilio's AnsweredBy (machine detection), normalised; undefined without detection. */
export function twilioAnsweredBy(form: Form): AnsweredBy | undefined {
  return answeredBy(form.AnsweredBy);
}

/** The `direction` and `answered_by` settings from a Twilio voice webhook's fields (absent ones left out). */
export function twilioCallFacts(form: Form): Record<string, string> {
  return facts(direction(form.Direction), twilioAnsweredBy(form));
}

/** The `direction` setting from a Plivo answer URL's fields. */
export function plivoCallFacts(form: Form): Record<string, string> {
  return facts(direction(form.Direction), undefined);
}

function facts(dir: CallDirection | undefined, answered: AnsweredBy | undefined): Record<string, string> {
  return { ...(dir ? { direction: dir } : {}), ...(answered ? { answered_by: answered } : {}) };
}
