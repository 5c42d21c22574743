// Provider webhooks post forms (or put the same fields in a GET query): their string fields as a flat record.

import type { Form } from './provider-request.js';

export type { Form } from './provider-request.js';

export function formOf(value: unknown): Form {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The set, non-empty entries only. */
export function compact(record: Readonly<Record<string, string | undefined>>): Form {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}

/** The query without the provider's own fields (Twilio and Plivo capitalise theirs: CallSid, CallUUID, From…). */
export function withoutProviderFields(query: Readonly<Form>): Form {
  return Object.fromEntries(Object.entries(query).filter(([name]) => !/^[A-Z]/.test(name)));
}
