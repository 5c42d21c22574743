// Pronunciation lexicons through the real app (HTTP, the eSpeak engine, SQLite): the API keeps an account's lexicons
// and refuses bad input whole; what a lexicon says is what the engine is given on every path (generate, stream, the
// WebSocket, a call's greeting, the OpenAI and ElevenLabs dialects), to the byte the same audio as the alias written
// out, billed for the input as written; a lexicon of another account or none is refused naming it; and a changed
// lexicon is never answered from the prompt cache.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../src/core/voice-catalog.js';
import { EspeakEngine } from '../../src/engine/espeak-engine.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../src/engine/tts-engine.js';
import type { LanguageCode } from '../../src/languages.js';
import { eventually, placeCall, unsignedAccount } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import WebSocket from 'ws';
import { openConfigured, WsTestClient } from '../helpers/ws-client.js';

/** The real engine, remembering the text of each job: what the voice was given to say. */
class RecordingEngine implements TtsEngine {
  readonly texts: string[] = [];
  constructor(private readonly inner: TtsEngine) {}
  get name() {
    return this.inner.name;
  }
  start = () => this.inner.start();
  isReady = () => this.inner.isReady();
  load = () => this.inner.load();
  close = () => this.inner.close();
  audioSource = (voiceName: string, language: LanguageCode) => this.inner.audioSource(voiceName, language);
  kindFor = (voiceName: string, language: LanguageCode) => this.inner.kindFor(voiceName, language);
  synthesize(job: SynthesisJob, signal: AbortSignal): Promise<PcmClip> {
    this.texts.push(job.text);
    return this.inner.synthesize(job, signal);
  }
}

let server: TestServer;
let engine: RecordingEngine;
let key: string;
let accountId: string;
let otherKey: string;
let voice: string;

beforeAll(async () => {
  const catalog = loadVoiceCatalog('models/raaga-v1/manifest.json');
  engine = new RecordingEngine(new EspeakEngine({ workers: 2, maxQueue: 64, voices: catalog.embeddedVoices() }));
  server = await startTestServer({ PROMPT_CACHE_MAX_BYTES: String(16 * 2 ** 20) }, { engine, catalog });
  const account = await server.account('growth', 10_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
  otherKey = (await server.account('growth', 1_000_000)).keys[0] as string;
  voice = server.deps.catalog.voices()[0]!.name;
});
afterAll(async () => {
  await server?.close();
});

async function call(method: string, path: string, body?: unknown, withKey = key) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    ...(body === undefined ? { headers: { authorization: `Bearer ${withKey}` } } : { headers: authHeaders(withKey), body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text === '' ? undefined : (JSON.parse(text) as any) };
}

async function generate(text: string, extra: object = {}, language = 'hi-IN', headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/v1/tts/generate`, {
    method: 'POST',
    headers: { ...authHeaders(key), ...headers },
    body: JSON.stringify({ model_id: 'raaga-v1', voice, language, text, output_format: 'pcm', sample_rate: 16000, ...extra }),
  });
  return { status: response.status, json: (await response.json()) as any };
}

/** The engine texts of what `run` synthesized. */
async function spoken(run: () => Promise<unknown>): Promise<string[]> {
  const from = engine.texts.length;
  await run();
  return engine.texts.slice(from);
}

describe('the lexicon API', () => {
  it('creates, reads, lists, edits and deletes a lexicon; default always exists', async () => {
    const empty = await call('GET', '/v1/lexicons/default');
    expect(empty).toMatchObject({ status: 200, json: { name: 'default', entry_count: 0, revision: 0, updated_at: null, entries: [] } });
    const put = await call('PUT', '/v1/lexicons/brands', {
      entries: [
        { language: 'hi-IN', grapheme: ' HDFC ', alias: 'एच डी एफ सी' },
        { language: 'en-IN', grapheme: 'Zomato', phoneme: 'z@U"mA:t@U', alphabet: 'x-sampa' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ name: 'brands', entry_count: 2 });
    expect(put.json.notes[0]).toMatch(/1 phoneme entry was checked and stored; no engine takes phonemes yet, so its word is spoken as written/);
    const read = await call('GET', '/v1/lexicons/brands');
    expect(read.json.entries).toEqual([
      { language: 'en-IN', grapheme: 'Zomato', phoneme: 'z@U"mA:t@U', alphabet: 'x-sampa' },
      { language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' },
    ]);
    const patched = await call('PATCH', '/v1/lexicons/brands', { delete: [{ language: 'en-IN', grapheme: 'ZOMATO' }], put: [{ language: 'hi-IN', grapheme: 'Nykaa', alias: 'नायका' }] });
    expect(patched).toMatchObject({ status: 200, json: { entry_count: 2 } });
    expect(patched.json.notes).toBeUndefined();
    expect((await call('GET', '/v1/lexicons')).json.lexicons.map((l: any) => [l.name, l.entry_count])).toEqual([
      ['brands', 2],
      ['default', 0],
    ]);
    expect((await call('DELETE', '/v1/lexicons/brands')).status).toBe(204);
    expect(await call('GET', '/v1/lexicons/brands')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
    expect((await call('DELETE', '/v1/lexicons/brands')).status).toBe(404);
    expect((await call('DELETE', '/v1/lexicons/default')).status).toBe(204);
  });

  it('keeps each account to its own lexicons', async () => {
    await call('PUT', '/v1/lexicons/secret', { entries: [{ language: 'en-IN', grapheme: 'Acme', alias: 'ack me' }] });
    expect((await call('GET', '/v1/lexicons/secret', undefined, otherKey)).status).toBe(404);
    expect((await call('GET', '/v1/lexicons', undefined, otherKey)).json.lexicons.map((l: any) => l.name)).toEqual(['default']);
    expect((await call('GET', '/v1/lexicons', undefined, 'rk_live_wrong')).status).toBe(401);
  });

  it('refuses bad input with the envelope naming the entry and field, and stores nothing of it', async () => {
    await call('PUT', '/v1/lexicons/kept', { entries: [{ language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' }] });
    const cases: [object, RegExp][] = [
      [{ entries: [{ language: 'hi-IN', grapheme: 'HDFC', alias: 'x' }, { language: 'hi-IN', grapheme: 'சென்னை', alias: 'चेन्नई' }] }, /entries\[1\]: 'grapheme' has 'ச' \(U\+0B9A\), a Tamil letter, but the entry is hi-IN/],
      [{ entries: [{ language: 'en-IN', grapheme: 'HDFC', alias: 'HDFC Bank' }] }, /entries\[0\]: 'alias' says 'HDFC' again, the word it replaces \(a loop\)/],
      [{ entries: [{ language: 'en-IN', grapheme: '', alias: 'x' }] }, /entries\[0\]: 'grapheme' must not be empty/],
      [{ entries: [{ language: 'en-IN', grapheme: 'x'.repeat(101), alias: 'x' }] }, /'grapheme' is 101 characters; the most is 100/],
      [{ entries: [{ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo', alphabet: 'sapi' }] }, /Field 'entries\.0\.alphabet' must be one of ipa, x-sampa/],
      [{ entries: [{ language: 'en-IN', grapheme: 'Zomato', phoneme: 'zo:', alphabet: 'ipa' }] }, /'phoneme' has ':' \(U\+003A\).*write ː/],
      [{ entries: [{ language: 'en-IN', grapheme: 'A', alias: 'x' }, { language: 'en-IN', grapheme: 'a', alias: 'y' }] }, /entries\[1\] \(en-IN 'a'\) repeats entries\[0\]/],
      [{ entries: [{ language: 'en-IN', grapheme: 'A' }] }, /needs either 'alias' or 'phoneme' with 'alphabet', not neither/],
      [{ entries: [], extra: 1 }, /Unknown field 'extra'/],
    ];
    for (const [body, message] of cases) {
      const refused = await call('PUT', '/v1/lexicons/kept', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.json.error.code).toBe('validation_error');
      expect(refused.json.error.message).toMatch(message);
    }
    expect((await call('PUT', '/v1/lexicons/Not_Valid', { entries: [] })).json.error.message).toMatch(/Lexicon name 'Not_Valid' is not valid/);
    expect((await call('PATCH', '/v1/lexicons/kept', {})).json.error.message).toMatch(/must put or delete at least one entry/);
    expect((await call('GET', '/v1/lexicons/kept')).json.entries).toEqual([{ language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' }]);
  });

  it('refuses a 21st lexicon besides default, and a body over its limit, in the envelope', async () => {
    const { keys } = await server.account('growth', 1000);
    const own = keys[0] as string;
    for (let i = 0; i < 20; i++) expect((await call('PUT', `/v1/lexicons/l${i}`, { entries: [] }, own)).status).toBe(200);
    const refused = await call('PUT', '/v1/lexicons/l20', { entries: [] }, own);
    expect(refused.status).toBe(422);
    expect(refused.json.error.message).toBe("Nothing was saved: the account already has 20 lexicons besides 'default', the most it may keep; delete one first.");
    expect((await call('PUT', '/v1/lexicons/default', { entries: [] }, own)).status).toBe(200);
    const huge = await fetch(`${server.url}/v1/lexicons/l0`, { method: 'PUT', headers: authHeaders(own), body: JSON.stringify({ entries: [], pad: 'x'.repeat(3 * 2 ** 20) }) });
    expect(huge.status).toBe(422);
    expect(((await huge.json()) as any).error.message).toMatch(/exceeds 2097152 bytes; send a large lexicon as several PATCH requests/);
  });

  it('counts writes in the rate window and reads not', async () => {
    const { keys } = await server.account('free', 1000);
    const own = keys[0] as string;
    const before = Number((await call('GET', '/v1/lexicons', undefined, own)).headers.get('x-ratelimit-remaining'));
    expect(Number((await call('GET', '/v1/lexicons/default', undefined, own)).headers.get('x-ratelimit-remaining'))).toBe(before);
    expect(Number((await call('PUT', '/v1/lexicons/default', { entries: [] }, own)).headers.get('x-ratelimit-remaining'))).toBe(before - 1);
  });
});

describe('what the engine is given', () => {
  beforeAll(async () => {
    await call('PUT', '/v1/lexicons/default', { entries: [{ language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी' }] });
    await call('PUT', '/v1/lexicons/brands', {
      entries: [
        { language: 'hi-IN', grapheme: 'HDFC', alias: 'एचडीएफसी बैंक' },
        { language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमैटो' },
        { language: 'en-IN', grapheme: 'Thiruvananthapuram', alias: 'thiru vanantha puram' },
      ],
    });
  });

  it('generate: the default lexicon always, named ones first; as long as the alias written out, billed as written', async () => {
    const text = 'आपका HDFC खाता और Zomato का ऑर्डर।';
    const noStore = { 'cache-control': 'no-store' };
    expect(await spoken(() => generate(text, {}, 'hi-IN', noStore))).toEqual(['आपका एच डी एफ सी खाता और Zomato का ऑर्डर।']);
    expect(await spoken(() => generate(text, { lexicons: ['brands'] }, 'hi-IN', noStore))).toEqual(['आपका एचडीएफसी बैंक खाता और ज़ोमैटो का ऑर्डर।']);
    let viaLexicon: Awaited<ReturnType<typeof generate>> | undefined;
    let writtenOut: Awaited<ReturnType<typeof generate>> | undefined;
    const a = await spoken(async () => (viaLexicon = await generate(text, { lexicons: ['brands'] }, 'hi-IN', noStore)));
    const b = await spoken(async () => (writtenOut = await generate('आपका एचडीएफसी बैंक खाता और ज़ोमैटो का ऑर्डर।', {}, 'hi-IN', noStore)));
    expect(a).toEqual(b);
    expect(viaLexicon?.status).toBe(200);
    // The engine was given the same words: the same audio but for eSpeak's own jitter between workers (a few ms), and
    // unlike the text read without the lexicon.
    const seconds = (result: typeof viaLexicon) => result?.json.duration_seconds as number;
    const without = await generate(text, {}, 'hi-IN', noStore);
    expect(Math.abs(seconds(viaLexicon) - seconds(writtenOut))).toBeLessThan(0.05);
    expect(Math.abs(seconds(viaLexicon) - seconds(without))).toBeGreaterThan(0.2);
    expect(viaLexicon?.json.characters_used).toBe([...text].length);
    expect(writtenOut?.json.characters_used).toBe([...'आपका एचडीएफसी बैंक खाता और ज़ोमैटो का ऑर्डर।'].length);
    // Entries apply to their own language only.
    expect(await spoken(() => generate('HDFC in Thiruvananthapuram.', { lexicons: ['brands'] }, 'en-IN', noStore))).toEqual(['HDFC in thiru vanantha puram.']);
  });

  it('stream: the same', async () => {
    const texts = await spoken(async () => {
      const response = await fetch(`${server.url}/v1/tts/stream`, {
        method: 'POST',
        headers: authHeaders(key),
        body: JSON.stringify({ model_id: 'raaga-v1', voice, language: 'hi-IN', text: 'Zomato से HDFC तक।', output_format: 'pcm', lexicons: ['brands'] }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expect(texts).toEqual(['ज़ोमैटो से एचडीएफसी बैंक तक।']);
  });

  it("refuses a lexicon the account does not have, or another account's, naming it (422 before any charge)", async () => {
    const before = (await server.deps.store.getAccount(accountId))?.credits;
    const refused = await generate('HDFC', { lexicons: ['brands', 'nope'] });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: 'validation_error' });
    expect(refused.json.error.message).toBe("Field 'lexicons' names a lexicon this account does not have: 'nope'. Create it with PUT /v1/lexicons/{name}, or leave it out.");
    const foreign = await fetch(`${server.url}/v1/tts/generate`, {
      method: 'POST',
      headers: authHeaders(otherKey),
      body: JSON.stringify({ model_id: 'raaga-v1', voice, language: 'hi-IN', text: 'HDFC', lexicons: ['brands'] }),
    });
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as any).error.message).toMatch(/does not have: 'brands'/);
    const notAList = await generate('HDFC', { lexicons: 'brands' });
    expect(notAList.status).toBe(422);
    expect(notAList.json.error.message).toMatch(/Field 'lexicons'/);
    expect((await server.deps.store.getAccount(accountId))?.credits).toBe(before);
  });

  it('never replays audio made before a lexicon changed; an unchanged one is replayed', async () => {
    await call('PUT', '/v1/lexicons/cached', { entries: [{ language: 'hi-IN', grapheme: 'Nykaa', alias: 'नायका' }] });
    const text = 'Nykaa पर आपका स्वागत है।';
    expect(await spoken(() => generate(text, { lexicons: ['cached'] }))).toEqual(['नायका पर आपका स्वागत है।']);
    // The same request again: from the cache, no engine job.
    const replayed = await generate(text, { lexicons: ['cached'] });
    expect(await spoken(() => generate(text, { lexicons: ['cached'] }))).toEqual([]);
    await call('PATCH', '/v1/lexicons/cached', { put: [{ language: 'hi-IN', grapheme: 'Nykaa', alias: 'नाइका' }] });
    const changed = await spoken(() => generate(text, { lexicons: ['cached'] }));
    expect(changed).toEqual(['नाइका पर आपका स्वागत है।']);
    expect((await generate(text, { lexicons: ['cached'] })).json.audio).not.toBe(replayed.json.audio);
    // A change to an entry of another language leaves this text's recording in force.
    await call('PATCH', '/v1/lexicons/cached', { put: [{ language: 'ta-IN', grapheme: 'Nykaa', alias: 'நைக்கா' }] });
    expect(await spoken(() => generate(text, { lexicons: ['cached'] }))).toEqual([]);
  });

  it('the WebSocket: config.lexicons on every text, a change in force at the next text, unknown names refused', async () => {
    const client = await openConfigured(server, key, { lexicons: ['brands'], output_format: 'pcm' });
    const first = await spoken(async () => {
      client.send({ type: 'text', text: 'Zomato से।' });
      await client.waitFor('end_of_utterance');
    });
    expect(first).toEqual(['ज़ोमैटो से।']);
    await call('PATCH', '/v1/lexicons/brands', { put: [{ language: 'hi-IN', grapheme: 'Zomato', alias: 'ज़ोमाटो' }] });
    const second = await spoken(async () => {
      client.send({ type: 'text', text: 'Zomato से।' });
      await client.waitFor('end_of_utterance', 2);
    });
    expect(second).toEqual(['ज़ोमाटो से।']);
    client.send({ type: 'config', model_id: 'raaga-v1', voice: 'aarav', language: 'hi-IN', lexicons: ['missing'] });
    const error = await client.waitFor('error');
    expect(error.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/does not have: 'missing'/) });
    client.socket.close();
  });

  it("a call's lexicons parameter applies to its greeting", async () => {
    const account = await unsignedAccount(server);
    const own = account.keys[0] as string;
    await call('PUT', '/v1/lexicons/ivr', { entries: [{ language: 'hi-IN', grapheme: 'HDFC', alias: 'एच डी एफ सी बैंक' }] }, own);
    const from = engine.texts.length;
    const placed = await placeCall(server, account.id, { query: { greeting: 'HDFC में स्वागत है।', lexicons: 'ivr', language: 'hi-IN', hangup_after_greeting: 'true' } });
    await eventually(() => engine.texts.slice(from).includes('एच डी एफ सी बैंक में स्वागत है।'), 'the greeting with the lexicon');
    // A message call: it hangs up once the greeting has played.
    await placed.peer.closed;
  });

  it('the OpenAI dialect applies the default lexicon', async () => {
    const texts = await spoken(async () => {
      const response = await fetch(`${server.url}/v1/audio/speech`, {
        method: 'POST',
        headers: authHeaders(key),
        body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'आपका HDFC खाता।', response_format: 'pcm' }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expect(texts).toEqual(['आपका एच डी एफ सी खाता।']);
  });

  it('the ElevenLabs dialect maps pronunciation_dictionary_locators onto lexicons, and refuses an unknown one in its envelope', async () => {
    const url = `${server.url}/elevenlabs/v1/text-to-speech/${voice}?output_format=pcm_16000`;
    const headers = { 'xi-api-key': key, 'content-type': 'application/json' };
    const texts = await spoken(async () => {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: 'Zomato से HDFC।', language_code: 'hi', pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'brands', version_id: 'v1' }] }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expect(texts).toEqual(['ज़ोमाटो से एचडीएफसी बैंक।']);
    const refused = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'HDFC', language_code: 'hi', pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'AbCdEf123' }] }),
    });
    // ElevenLabs answers a body's mistake with 400, in its own envelope.
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as any;
    expect(body.detail).toMatchObject({ status: 'validation_error', message: "Lexicon name 'AbCdEf123' is not valid: use 1-64 of a-z, 0-9, _ and -." });
    const unknown = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ text: 'HDFC', language_code: 'hi', pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'nope' }] }) });
    expect(((await unknown.json()) as any).detail.message).toBe(
      "Field 'pronunciation_dictionary_locators' names a lexicon this account does not have: 'nope'. Create it with PUT /v1/lexicons/{name}, or leave it out.",
    );
  });

  it("the ElevenLabs sockets: the message that opens a context names its dictionaries; an unknown one fails the context", async () => {
    const url = `${server.url.replace('http', 'ws')}/elevenlabs/v1/text-to-speech/${voice}/multi-stream-input?output_format=pcm_16000&language_code=hi`;
    const client = new WsTestClient(new WebSocket(url, { headers: { 'xi-api-key': key } }));
    await client.opened;
    const from = engine.texts.length;
    client.send({ text: ' ', context_id: 'c1', pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'brands' }] });
    client.send({ text: 'Zomato से।', context_id: 'c1', flush: true });
    client.send({ text: ' ', context_id: 'c2', pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'nope' }] });
    client.send({ text: 'Zomato से।', context_id: 'c2', flush: true });
    await client.until(() => client.messages.some((m) => m.contextId === 'c1' && m.audio), 'audio of c1');
    await client.until(() => client.messages.some((m) => m.contextId === 'c2' && m.error), 'the refusal of c2');
    expect(engine.texts.slice(from)).toEqual(['ज़ोमाटो से।']);
    expect(client.messages.find((m) => m.contextId === 'c2' && m.error)).toMatchObject({
      error: 'validation_error',
      message: "Field 'pronunciation_dictionary_locators' names a lexicon this account does not have: 'nope'. Create it with PUT /v1/lexicons/{name}, or leave it out.",
    });
    client.send({ close_socket: true });
    await client.closed;
  });
});
