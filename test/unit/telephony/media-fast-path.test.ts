// The `media` fast path (json-frames.ts mediaFastPath): for every JSON provider, a media frame read without zod gives
// exactly what the zod schema gives, and a frame the hand check does not take is read by the schema, so malformed
// frames get the same problems and details as before. Each frame is decoded twice: with the provider's format, and
// with the same format minus its fast path (the schema alone).

import { describe, expect, it } from 'vitest';
import { EXOTEL_INBOUND } from '../../../src/telephony/exotel/exotel-codec.js';
import { decodeJsonFrame, type JsonFrameFormat } from '../../../src/telephony/json-frames.js';
import { PLIVO_INBOUND } from '../../../src/telephony/plivo/plivo-codec.js';
import { TWILIO_INBOUND } from '../../../src/telephony/twilio/twilio-messages.js';

const PAYLOAD = Buffer.alloc(160, 0x7f).toString('base64');

interface Provider {
  readonly name: string;
  readonly format: JsonFrameFormat<unknown>;
  /** A media frame as the provider (and our simulator) sends it. */
  readonly typical: Record<string, unknown>;
  /** Optional fields of the message and of `media`, as the schema names them. */
  readonly messageFields: readonly string[];
  readonly mediaFields: readonly string[];
}

const PROVIDERS: readonly Provider[] = [
  {
    name: 'Twilio',
    format: { sender: 'Twilio', ...TWILIO_INBOUND } as JsonFrameFormat<unknown>,
    typical: { event: 'media', sequenceNumber: '3', streamSid: 'MZ18ad3ab5a668481ce02b83e7395059f0', media: { track: 'inbound', chunk: '2', timestamp: '5', payload: PAYLOAD } },
    messageFields: ['sequenceNumber', 'streamSid'],
    mediaFields: ['track', 'chunk', 'timestamp'],
  },
  {
    name: 'Exotel',
    format: EXOTEL_INBOUND as JsonFrameFormat<unknown>,
    typical: { event: 'media', sequence_number: 4, stream_sid: 'st1', media: { chunk: '1', timestamp: '20', payload: PAYLOAD } },
    messageFields: [],
    mediaFields: ['chunk', 'timestamp'],
  },
  {
    name: 'Plivo',
    format: PLIVO_INBOUND as JsonFrameFormat<unknown>,
    typical: { event: 'media', sequenceNumber: 7, streamId: 'st1', media: { track: 'inbound', timestamp: '1732600000123', chunk: 3, payload: PAYLOAD }, extra_headers: '' },
    messageFields: [],
    mediaFields: ['track', 'timestamp', 'chunk'],
  },
];

const ABSENT = Symbol('absent');
/** Values a field may take on the wire: valid for some schema field, invalid for others, or odd. */
const VALUES: readonly unknown[] = [
  ABSENT,
  0,
  7,
  -0,
  -1,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  1e300,
  '0',
  '42',
  '007',
  '123456789012345',
  '1234567890123456',
  '-1',
  '1.5',
  ' 1',
  '',
  'inbound',
  'MZ1',
  'x'.repeat(64),
  'x'.repeat(65),
  'é'.repeat(64),
  null,
  true,
  [],
  ['1'],
  {},
  { n: 1 },
];
const PAYLOADS: readonly unknown[] = [PAYLOAD, '', 'not base64!', ABSENT, null, 5, ['AA=='], { payload: 'AA==' }];

/** A tiny deterministic generator (mulberry32): the same frames on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function set(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === ABSENT) delete target[key];
  else target[key] = value;
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const withoutFastPath = (format: JsonFrameFormat<unknown>): JsonFrameFormat<unknown> => ({ ...format, media: undefined });

describe.each(PROVIDERS)('$name media frames', (provider) => {
  const fast = provider.format.media!;
  const schemaOnly = withoutFastPath(provider.format);

  /** Decodes with and without the fast path: the same result either way; says whether the fast path took it. */
  function same(frame: unknown): { readonly fastPathTook: boolean; readonly result: ReturnType<typeof decodeJsonFrame> } {
    const withFast = decodeJsonFrame(bytes(frame), false, provider.format);
    const zodOnly = decodeJsonFrame(bytes(frame), false, schemaOnly);
    expect(withFast, JSON.stringify(frame)).toStrictEqual(zodOnly);
    // Key order too: what the codec reads is the same object as zod's.
    expect(JSON.stringify(withFast)).toBe(JSON.stringify(zodOnly));
    const parsed = JSON.parse(JSON.stringify(frame)) as unknown;
    const fastPathTook = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && fast(parsed as Record<string, unknown>) !== undefined;
    return { fastPathTook, result: withFast };
  }

  it('the frame the provider sends: the fast path takes it and gives what zod gives', () => {
    const { fastPathTook, result } = same(provider.typical);
    expect(fastPathTook).toBe(true);
    expect(result.ok).toBe(true);
  });

  it('valid variants (optional fields absent, numbers or digit strings, extra fields): taken, identical', () => {
    const media = provider.typical.media as Record<string, unknown>;
    const variants: Record<string, unknown>[] = [
      { event: 'media', media: { payload: PAYLOAD } },
      { event: 'media', media: { payload: '' } },
      { event: 'media', media: { payload: 'not base64!' } },
      { ...provider.typical, unknown: { nested: [1, 2] }, media: { ...media, unknown: 'x' } },
      { event: 'media', media: Object.fromEntries(provider.mediaFields.map((field) => [field, field === 'track' ? 'outbound' : 0]).concat([['payload', PAYLOAD]])) },
      { event: 'media', media: Object.fromEntries(provider.mediaFields.map((field) => [field, field === 'track' ? '' : '123456789012345']).concat([['payload', PAYLOAD]])) },
      { event: 'media', media: Object.fromEntries(provider.mediaFields.map((field) => [field, field === 'track' ? 'inbound' : 2 ** 53 - 1]).concat([['payload', PAYLOAD]])) },
    ];
    for (const variant of variants) {
      const { fastPathTook, result } = same(variant);
      expect(fastPathTook, JSON.stringify(variant)).toBe(true);
      expect(result.ok).toBe(true);
    }
  });

  it('malformed media frames: the fast path declines them and the schema gives the same problem as before', () => {
    const media = provider.typical.media as Record<string, unknown>;
    const malformed: unknown[] = [
      { event: 'media' },
      { event: 'media', media: null },
      { event: 'media', media: [] },
      { event: 'media', media: 'AA==' },
      { event: 'media', media: {} },
      { event: 'media', media: { ...media, payload: 5 } },
      { event: 'media', media: { ...media, payload: null } },
      ...provider.mediaFields.flatMap((field) => [-1, 1.5, 2 ** 53, '-1', '1234567890123456', null, {}].map((bad) => ({ ...provider.typical, media: { ...media, [field]: field === 'track' ? 5 : bad } }))),
      ...provider.messageFields.flatMap((field) => [-1, '', 'x'.repeat(65), null, 2.5].map((bad) => ({ ...provider.typical, [field]: bad }))),
    ];
    for (const frame of malformed) {
      const { fastPathTook, result } = same(frame);
      expect(fastPathTook, JSON.stringify(frame)).toBe(false);
      expect(result).toMatchObject({ ok: false, problem: 'invalid-shape' });
    }
  });

  it('3000 generated frames: whatever the fields hold, the result is the schema’s', () => {
    const next = random(32 + provider.name.length);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
    let taken = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const frame: Record<string, unknown> = { event: 'media' };
      for (const field of provider.messageFields) set(frame, field, next() < 0.6 ? (provider.typical[field] ?? ABSENT) : pick(VALUES));
      const media: Record<string, unknown> = {};
      for (const field of provider.mediaFields) set(media, field, next() < 0.6 ? ABSENT : pick(VALUES));
      set(media, 'payload', next() < 0.8 ? PAYLOAD : pick(PAYLOADS));
      if (next() < 0.1) media.extra = pick(VALUES.filter((value) => value !== ABSENT));
      set(frame, 'media', next() < 0.95 ? media : pick(VALUES));
      const { fastPathTook, result } = same(frame);
      if (fastPathTook) taken++;
      if (!result.ok) refused++;
    }
    // Both kinds are well represented, so the comparison covered each path.
    expect(taken).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  });

  it('other kinds and unreadable frames never reach the fast path: unchanged', () => {
    for (const text of ['{oops', '[1,2]', '{"event":"transcript"}', '{"event":"stop"}', '{"event":"dtmf","dtmf":{"digit":"12"}}']) {
      const data = new TextEncoder().encode(text);
      expect(decodeJsonFrame(data, false, provider.format)).toStrictEqual(decodeJsonFrame(data, false, schemaOnly));
    }
  });
});
