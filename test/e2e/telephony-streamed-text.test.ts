// Streamed text on a call over real sockets (the simulated Twilio peer, a fake agent, the embedded engine): an agent
// forwards its LLM's tokens one by one (`text_append`) and the caller hears the first sentence before the flush; the
// agent sees one utterance (one end_of_utterance, one utterance_played, never a segment's own id); a key press mid-way
// cuts it at once, discards what was still to come, reports the words heard across segments and bills only what was
// spoken; a whole text sent meanwhile plays after it; an append past the utterance's limit is refused alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULAW_BYTES_PER_MS, mulawToPcm16 } from '../../src/audio/mulaw.js';
import { concatBytes } from '../../src/audio/bytes.js';
import { catalogPath } from '../../src/deps.js';
import { CallerTrack } from '../../src/sim/caller-audio.js';
import { CallerVoice } from '../../src/sim/caller-speech.js';
import type { CallPeer } from '../../src/sim/call-peer.js';
import { FakeAgent, type AgentEvent } from '../helpers/fake-agent.js';
import { eventually, placeCall, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

// Each sentence is under the clause cut (60 characters), so each is one segment: one turn, one set of marks.
const SENTENCES = ['नमस्ते, मैं राग बैंक से बोल रही हूँ। ', 'आपका इस महीने का बिल तैयार है। ', 'कृपया समय पर भुगतान करें। ', 'धन्यवाद।'];
const FULL = SENTENCES.join('');
const cp = (text: string) => [...text].length;
/** Words with the space after them, as an LLM's tokens come. */
const tokens = (text: string) => text.split(/(?<=\s)/u).filter((token) => token !== '');

let server: TestServer;
let voice: CallerVoice;
/** ~2 s of a caller's speech: a real interruption. */
let interruption: Uint8Array;

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '2' });
  await server.deps.telephony!.vad!.ready();
  voice = await CallerVoice.start(catalogPath(server.deps.config));
  interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
});
afterAll(async () => {
  await voice?.close();
  await server?.close();
});

async function call(caller?: CallerTrack) {
  const created = await unsignedAccount(server, 'growth', 1_000_000);
  const agent = await FakeAgent.start();
  const placed = await placeCall(server, created.id, { query: { agent_url: agent.url }, ...(caller ? { caller } : {}) });
  await agent.waitFor('call_started');
  const spent = async () => 1_000_000 - (await server.deps.store.getAccount(created.id))!.credits;
  return { agent, peer: placed.peer, spent };
}

const append = (agent: FakeAgent, text: string, extra: AgentEvent = {}) => {
  for (const [index, token] of tokens(text).entries()) agent.send({ type: 'text_append', text: token, ...(index === 0 ? extra : {}) });
};

/** Turn numbers of the chunk marks the call sent (`u<turn>.c<chunk>.g<generation>`), in order, without repeats. */
const turnsMarked = (peer: CallPeer) => [...new Set(peer.inbound.flatMap((e) => (e.event === 'mark' && /^u\d+\.c/.test(e.name) ? [Number(/^u(\d+)/.exec(e.name)![1])] : [])))];
const mediaBytes = (records: CallPeer['inbound']) => records.reduce((sum, e) => sum + (e.event === 'media' ? e.audio.length : 0), 0);
const withId = (agent: FakeAgent, type: string, id: string) => agent.ofType(type).filter((event) => event.utterance_id === id);
const noSegmentIds = (agent: FakeAgent) => expect(agent.events.filter((event) => String(event.utterance_id ?? '').includes('#'))).toEqual([]);

describe('streamed text on a call', () => {
  it('tokens one by one: audio before the flush, a pause between segments, one reply and one played for the whole', async () => {
    const { agent, peer, spent } = await call();
    try {
      append(agent, SENTENCES[0]!, { utterance_id: 'reply' });
      append(agent, SENTENCES[1]!);
      // The first sentence is spoken while the agent has not finished (nor flushed).
      await peer.waitFor('first_media_in', 15_000);
      expect(withId(agent, 'end_of_utterance', 'reply')).toEqual([]);
      append(agent, SENTENCES[2]! + SENTENCES[3]!);
      agent.send({ type: 'text_flush' });
      const end = await agent.waitFor('end_of_utterance', { where: (e) => e.utterance_id === 'reply' });
      const played = await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'reply' });
      expect(end).toMatchObject({ characters_used: cp(FULL), truncated: false });
      expect(end.duration_seconds * 1000).toBeCloseTo(played.duration_ms, -2);
      expect(withId(agent, 'end_of_utterance', 'reply')).toHaveLength(1);
      expect(withId(agent, 'utterance_played', 'reply')).toHaveLength(1);
      noSegmentIds(agent);
      // One turn per segment; the first one ends with its sentence's pause (silence), not cut short.
      expect(turnsMarked(peer)).toEqual([1, 2, 3, 4]);
      const firstTurnEnd = peer.inbound.findIndex((e) => e.event === 'mark' && e.name.startsWith('u1.'));
      const firstTurn = mulawToPcm16(concatBytes(peer.inbound.slice(0, firstTurnEnd).flatMap((e) => (e.event === 'media' ? [e.audio] : []))));
      const tail = firstTurn.subarray(firstTurn.length - 8 * 200);
      expect(Math.max(...Array.from(tail, Math.abs))).toBeLessThan(200);
      await peer.stop();
      await eventually(async () => (await spent()) === cp(FULL), 'billing of the whole text');
    } finally {
      await agent.close();
    }
  });

  it('a key press mid-stream: cut at once, pending text discarded, heard_text across segments, billed as spoken', async () => {
    const { agent, peer, spent } = await call();
    try {
      // Never flushed: the tail waits for more tokens when the caller cuts in.
      const tail = 'और अंत में, आपके';
      append(agent, FULL + ' ' + tail, { utterance_id: 'reply' });
      // The first segment has played whole (its last mark came back), and the second for most of a second (the
      // position marks, named by their place on the call's audio, say so).
      await peer.waitFor('mark_echoed', 15_000, (detail) => detail === 'u1.c0.g0');
      const firstMark = peer.inbound.findIndex((e) => e.event === 'mark' && e.name === 'u1.c0.g0');
      const firstSegmentMs = mediaBytes(peer.inbound.slice(0, firstMark)) / MULAW_BYTES_PER_MS;
      await peer.waitFor('mark_echoed', 15_000, (detail) => Number(/^p(\d+)\.g0$/.exec(detail ?? '')?.[1] ?? 0) >= firstSegmentMs + 900);
      peer.sendDtmf('1');
      await peer.waitFor('clear_received', 5000);
      const interrupted = await agent.waitFor('interrupted');
      const cancellation = await agent.waitFor('cancellation', { where: (e) => e.utterance_id === 'reply' });
      expect(interrupted).toMatchObject({ utterance_id: 'reply', cause: 'dtmf' });
      const heard = String(interrupted.heard_text);
      // The whole first segment, then words of the second: a prefix of the text ending at a word, never past it.
      expect(heard.startsWith(SENTENCES[0]!)).toBe(true);
      expect(heard.length).toBeGreaterThan(SENTENCES[0]!.length);
      expect((SENTENCES[0]! + SENTENCES[1]!).trim().startsWith(heard)).toBe(true);
      expect((SENTENCES[0]! + SENTENCES[1]!)[heard.length]).toMatch(/[\s,।]/u);
      expect(interrupted.played_ms).toBeGreaterThan(0);
      // Billed: the first segment and what of the second had been synthesized; never the rest of the text.
      expect(cancellation.characters_used).toBeGreaterThanOrEqual(cp(SENTENCES[0]!));
      expect(cancellation.characters_used).toBeLessThanOrEqual(cp(SENTENCES[0]! + SENTENCES[1]!));
      expect(withId(agent, 'cancellation', 'reply')).toHaveLength(1);
      expect(withId(agent, 'end_of_utterance', 'reply')).toEqual([]);

      // Nothing of it after the clear: the next words the agent says are the first audio since.
      const clearAt = peer.inbound.findIndex((e) => e.event === 'clear');
      const before = peer.inbound.length;
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'next' });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'next' });
      expect(peer.inbound.slice(clearAt + 1, before)).toEqual([]);
      expect(agent.ofType('utterance_played').map((e) => e.utterance_id)).toEqual(['next']);
      noSegmentIds(agent);
      await peer.stop();
      await eventually(async () => (await spent()) === cancellation.characters_used + cp('जी, बताइए।'), 'billing of what was spoken');
    } finally {
      await agent.close();
    }
  });

  it('the caller speaking mid-stream: the bot stops, heard_text covers the segments heard, nothing more is spoken', async () => {
    // The first segment lasts about 2.4 s: the caller starts talking about a second into the second one.
    const { agent, peer, spent } = await call(new CallerTrack([{ atMs: 3400, mulaw: interruption, label: 'रुको' }]));
    try {
      append(agent, FULL + ' और अंत में, आपके', { utterance_id: 'reply' });
      await peer.waitFor('clear_received', 15_000);
      const interrupted = await agent.waitFor('interrupted');
      const cancellation = await agent.waitFor('cancellation', { where: (e) => e.utterance_id === 'reply' });
      expect(interrupted).toMatchObject({ utterance_id: 'reply', cause: 'speech' });
      const heard = String(interrupted.heard_text);
      expect(heard.startsWith(SENTENCES[0]!)).toBe(true);
      expect(FULL.startsWith(heard)).toBe(true);
      expect(FULL[heard.length] ?? ' ').toMatch(/[\s,।]/u);
      // Never a segment whose audio had not been sent by the clear.
      const clearAt = peer.inbound.findIndex((e) => e.event === 'clear');
      const sentTurns = new Set(peer.inbound.slice(0, clearAt).flatMap((e) => (e.event === 'mark' && /^u\d+\.c/.test(e.name) ? [Number(/^u(\d+)/.exec(e.name)![1])] : [])));
      expect(heard.length).toBeLessThanOrEqual(SENTENCES.slice(0, sentTurns.size + 1).join('').length);
      expect(withId(agent, 'cancellation', 'reply')).toHaveLength(1);
      expect(cancellation.characters_used).toBeLessThan(cp(FULL));
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'next' });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'next' });
      expect(agent.ofType('utterance_played').map((e) => e.utterance_id)).toEqual(['next']);
      noSegmentIds(agent);
      await peer.stop();
      await eventually(async () => (await spent()) === cancellation.characters_used + cp('जी, बताइए।'), 'billing of what was spoken');
    } finally {
      await agent.close();
    }
  });

  it('a whole text sent while a streamed utterance is open plays after it; an append past its limit is refused alone', async () => {
    const { agent, peer } = await call();
    try {
      append(agent, SENTENCES[0]!, { utterance_id: 'streamed' });
      agent.send({ type: 'text', text: 'यह बाद में।', utterance_id: 'whole' });
      agent.send({ type: 'text_append', text: 'क'.repeat(3000) });
      const refused = await agent.waitFor('error');
      expect(refused.error.code).toBe('text_too_long');
      expect(refused.error.message).toMatch(/at most 3000 code points/);
      expect(refused).not.toHaveProperty('utterance_id');
      append(agent, SENTENCES[3]!);
      agent.send({ type: 'text_flush' });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'whole' });
      const ends = agent.ofType('end_of_utterance').map((e) => [e.utterance_id, e.characters_used]);
      expect(ends).toEqual([
        ['streamed', cp(SENTENCES[0]! + SENTENCES[3]!)],
        ['whole', cp('यह बाद में।')],
      ]);
      expect(agent.ofType('utterance_played').map((e) => e.utterance_id)).toEqual(['streamed', 'whole']);
      // Segments first, then the whole text: three turns in that order.
      expect(turnsMarked(peer)).toEqual([1, 2, 3]);
      noSegmentIds(agent);
      await peer.stop();
    } finally {
      await agent.close();
    }
  });
});
