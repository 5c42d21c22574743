// Barge-in over real sockets: the simulated Twilio peer plays a caller whose speech is made by the embedded engine,
// Silero VAD runs on it in the server, and a fake agent listens. Speech over the bot holds it (`clear`) at once; a
// sentence then commits: abort, no frame of the old generations after it, cleared marks ignored, `interrupted` with
// the text the caller heard. A filler holds and resumes: the caller hears every sample of the greeting, the re-sent
// audio byte for byte what was cleared. A non-interruptible greeting and barge_in=none do not cut; a DTMF key does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/audio/bytes.js';
import { fadeInMulaw, PHONE_FRAME_BYTES } from '../../src/audio/mulaw.js';
import { splitUtterance } from '../../src/core/text/split-utterance.js';
import { catalogPath } from '../../src/deps.js';
import { CallerTrack } from '../../src/sim/caller-audio.js';
import { CallerVoice } from '../../src/sim/caller-speech.js';
import type { CallPeer } from '../../src/sim/call-peer.js';
import { FakeAgent } from '../helpers/fake-agent.js';
import { metricValue } from '../helpers/metrics.js';
import { eventually, LONG_GREETING, placeCall, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let agent: FakeAgent;
let voice: CallerVoice;
let interruption: Uint8Array;
let filler: Uint8Array;
const cp = (text: string) => [...text].length;

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '2' });
  await server.deps.telephony!.vad!.ready();
  voice = await CallerVoice.start(catalogPath(server.deps.config));
  // ~2.2 s of speech: a real interruption. "हाँ" (~300 ms of audio, ~150 ms of it voiced): a backchannel.
  interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
  filler = await voice.say({ text: 'हाँ', language: 'hi-IN' });
});
afterAll(async () => {
  await voice?.close();
  await server?.close();
});

async function withAgent<T>(run: (agent: FakeAgent) => Promise<T>): Promise<T> {
  agent = await FakeAgent.start();
  try {
    return await run(agent);
  } finally {
    await agent.close();
  }
}

async function account() {
  const created = await unsignedAccount(server, 'growth', 1_000_000);
  return { id: created.id, balance: async () => (await server.deps.store.getAccount(created.id))!.credits };
}

/** The index in the peer's inbound log of its first `clear`. */
const clearIndex = (peer: CallPeer) => peer.inbound.findIndex((entry) => entry.event === 'clear');

/** Chunk marks (`u<turn>.c<chunk>.g<generation>`), not the position marks (`p<ms>.g<generation>`) between them. */
const isChunkMark = (name: string | undefined) => name !== undefined && /^u\d+\.c\d+\.g\d+$/.test(name);

/**
 * A held-then-resumed utterance as the caller heard it. `before`: the audio received up to the clear; `after`: the
 * audio re-sent and sent after the resume. The replay starts at a frame of `before` (its first frame faded in);
 * whatever of `before` had not played by the clear must come back, or it was lost.
 */
function resumeAnalysis(peer: CallPeer, clearIndex: number) {
  const audio = (records: typeof peer.inbound) => concatBytes(records.flatMap((r) => (r.event === 'media' ? [r.audio] : [])));
  const before = audio(peer.inbound.slice(0, clearIndex));
  const after = audio(peer.inbound.slice(clearIndex + 1));
  const played = peer.playedMulaw();
  // Where the replay starts: the frame of `before` whose next frame the second re-sent frame repeats exactly.
  let replayAt = -1;
  for (let at = 0; at + 2 * PHONE_FRAME_BYTES <= before.length; at += PHONE_FRAME_BYTES) {
    if (equalBytes(before.subarray(at + PHONE_FRAME_BYTES, at + 2 * PHONE_FRAME_BYTES), after.subarray(PHONE_FRAME_BYTES, 2 * PHONE_FRAME_BYTES))) {
      replayAt = at;
    }
  }
  // What played before the clear is the head of `played`: everything past it was the replay and what followed.
  const playedBeforeClear = played.length - after.length;
  return { before, after, played, replayAt, playedBeforeClear };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** `heard` is where `text` starts and ends where a word of it does (before a space or punctuation, or at its end). */
function expectWordEndPrefix(heard: string, text: string): void {
  expect(text.startsWith(heard)).toBe(true);
  if (heard.length > 0 && heard.length < text.length) expect(text[heard.length]).toMatch(/[\s,।.]/u);
}

/** Where each chunk of the greeting starts on the call's audio (ms), from the media before each chunk mark sent. */
function chunkStartsMs(peer: CallPeer, beforeIndex: number): number[] {
  const starts = [0];
  let bytes = 0;
  for (const record of peer.inbound.slice(0, beforeIndex)) {
    if (record.event === 'media') bytes += record.audio.length;
    else if (record.event === 'mark' && isChunkMark(record.name)) starts.push(bytes / 8);
  }
  return starts;
}

/** The source text of chunks 0..k of the greeting, as the server cuts it. */
function heardUpTo(lastChunk: number): string {
  const chunks = splitUtterance(LONG_GREETING, { firstChunkMaxChars: 100, maxChunkChars: 300, language: 'hi-IN' });
  const codePoints = chunks.slice(0, lastChunk + 1).reduce((sum, chunk) => sum + chunk.codePoints, 0);
  return [...LONG_GREETING].slice(0, codePoints).join('').trim();
}

describe('barge-in', () => {
  it('caller speech over the greeting: clear, nothing of the old generation after it, interrupted with the heard text', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const windowsBefore = await metricValue(server, 'raaga_vad_windows_total');
      const call = await placeCall(server, acct.id, {
        query: { greeting: LONG_GREETING, agent_url: agent.url },
        caller: new CallerTrack([{ atMs: 4000, mulaw: interruption, label: 'रुको' }]),
      });
      const { peer } = call;
      await peer.waitFor('clear_received', 15_000);
      const interrupted = await agent.waitFor('interrupted');
      const cancellation = await agent.waitFor('cancellation');
      expect(await agent.waitFor('speech_started')).toHaveProperty('at_ms');
      const bargeInMs = peer.summary().bargeInMs;
      expect(bargeInMs).toBeDefined();
      // How fast is measured in bench/barge-in.ts; here only that the clear followed the caller's speech.
      expect(bargeInMs!).toBeGreaterThan(0);
      // The caller's windows went through the shared batcher: at least the 250 ms confirming the speech (8 windows).
      const windows = (await metricValue(server, 'raaga_vad_windows_total')) - windowsBefore;
      expect(windows).toBeGreaterThanOrEqual(8);
      expect(await metricValue(server, 'raaga_vad_inferences_total')).toBeGreaterThan(0);
      expect(await metricValue(server, 'raaga_vad_inferences_total')).toBeLessThanOrEqual(await metricValue(server, 'raaga_vad_windows_total'));

      // What was heard: at least the chunks whose marks came back (played, not cleared) before the clear, and the
      // words of the next chunk that ended before the last position mark came back; never past that position.
      const index = clearIndex(peer);
      const clearAt = peer.inbound[index]!.atMs;
      const echoedBeforeClear = peer.timeline.filter((e) => e.kind === 'mark_echoed' && e.atMs <= clearAt);
      const lastChunk = Math.max(-1, ...echoedBeforeClear.filter((e) => isChunkMark(e.detail)).map((e) => Number(/\.c(\d+)\./.exec(e.detail!)![1])));
      const positionMs = Math.max(0, ...echoedBeforeClear.map((e) => /^p(\d+)\.g0$/.exec(e.detail ?? '')).map((m) => (m ? Number(m[1]) : 0)));
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'speech' });
      const heard = String(interrupted.heard_text);
      expectWordEndPrefix(heard, LONG_GREETING);
      expect(heard.startsWith(lastChunk < 0 ? '' : heardUpTo(lastChunk))).toBe(true);
      const chunkStarts = chunkStartsMs(peer, index);
      const playing = chunkStarts.filter((startMs) => startMs <= positionMs).length - 1;
      expect(heardUpTo(playing).startsWith(heard)).toBe(true);
      // A second into a chunk, eSpeak has finished a word of it: the heard text goes past the chunk before.
      if (positionMs - chunkStarts[playing]! >= 1000) expect(heard.length).toBeGreaterThan(playing === 0 ? 0 : heardUpTo(playing - 1).length);
      // How much had played when the caller spoke depends on how fast this machine synthesized the greeting, so the
      // heard text is checked exactly against the marks that came back, and the position against what was sent.
      expect(interrupted.played_ms).toBeGreaterThan(0);
      expect(interrupted.played_ms).toBeLessThanOrEqual(peer.summary().playout.receivedMs);
      expect(cancellation.utterance_id).toBe('greeting');
      expect(cancellation.characters_used).toBeLessThan(cp(LONG_GREETING));

      // Nothing of the interrupted utterance follows the clear: no media at all until the agent speaks again.
      const beforeReply = peer.inbound.length;
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'reply' });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'reply' });
      expect(peer.inbound.slice(index + 1, beforeReply)).toEqual([]);
      expect(agent.ofType('utterance_played').map((e) => e.utterance_id)).toEqual(['reply']);
      const after = peer.inbound.slice(index + 1);
      expect(after.some((e) => e.event === 'media')).toBe(true);
      // The hold started generation 1, the commit generation 2: only its marks follow, position marks among them.
      const marksAfter = after.flatMap((e) => (e.event === 'mark' ? [e.name] : []));
      expect(marksAfter.filter(isChunkMark)).toEqual(['u2.c0.g2']);
      expect(marksAfter.every((name) => name.endsWith('.g2'))).toBe(true);
      expect(marksAfter.some((name) => name.startsWith('p'))).toBe(true);
      await peer.stop();
      await eventually(async () => 1_000_000 - (await acct.balance()) === cancellation.characters_used + cp('जी, बताइए।'), 'billing');
    });
  });

  it('marks echoed because of a clear are ignored: not played, not heard', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const call = await placeCall(server, acct.id, { query: { greeting: LONG_GREETING, agent_url: agent.url } });
      // Cut right after the first chunk's mark left, before its audio has played: the mark is pending at the clear.
      await call.peer.waitFor('mark_received', 10_000, (detail) => detail === 'u1.c0.g0');
      call.peer.sendDtmf('1');
      await call.peer.waitFor('clear_received', 5000);
      const interrupted = await agent.waitFor('interrupted');
      expect(call.peer.timeline.some((e) => e.kind === 'mark_echoed' && e.detail === 'u1.c0.g0 (cleared)')).toBe(true);
      // Position marks may have proved some words of the first chunk heard, never the whole of it.
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'dtmf' });
      expectWordEndPrefix(String(interrupted.heard_text), LONG_GREETING);
      expect(String(interrupted.heard_text).length).toBeLessThan(heardUpTo(0).length);
      expect(interrupted.played_ms).toBeGreaterThan(0);
      // The cleared mark never counts as played: the only utterance_played is the reply spoken after the cut.
      agent.send({ type: 'text', text: 'जी, बताइए।', utterance_id: 'reply' });
      await agent.waitFor('utterance_played', { where: (e) => e.utterance_id === 'reply' });
      expect(agent.ofType('utterance_played').map((e) => e.utterance_id)).toEqual(['reply']);
      await call.peer.stop();
    });
  });

  it('a filler holds the bot and resumes it: nothing of the greeting is lost, the re-sent audio is what was cleared', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const greeting = 'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है।';
      const call = await placeCall(server, acct.id, {
        query: { greeting, agent_url: agent.url, barge_in_events: '2' },
        caller: new CallerTrack([{ atMs: 1500, mulaw: filler, label: 'हाँ' }]),
      });
      const suspected = await agent.waitFor('interruption_suspected');
      const resumed = await agent.waitFor('resumed');
      expect(suspected).toMatchObject({ utterance_id: 'greeting', suspect_id: resumed.suspect_id });
      expect(resumed).toMatchObject({ utterance_id: 'greeting', reason: 'short' });
      // The replay starts where the caller was confirmed to have heard up to when the bot was held.
      expect(resumed.from_ms).toBe(suspected.position_ms);
      expect(await agent.waitFor('utterance_played', { timeoutMs: 15_000 })).toMatchObject({ utterance_id: 'greeting' });
      expect(agent.ofType('interrupted')).toEqual([]);
      expect(agent.ofType('cancellation')).toEqual([]);
      const { peer } = call;
      expect(peer.summary().clears).toBe(1);

      const index = clearIndex(peer);
      const { before, after, played, replayAt, playedBeforeClear } = resumeAnalysis(peer, index);
      expect(replayAt).toBeGreaterThanOrEqual(0);
      expect(replayAt).toBe(Math.round(resumed.from_ms * 8));
      // The first re-sent frame fades in; every re-sent frame after it is the cleared audio, byte for byte.
      expect(after.subarray(0, PHONE_FRAME_BYTES)).toEqual(fadeInMulaw(before.subarray(replayAt, replayAt + PHONE_FRAME_BYTES), 64));
      const resent = before.length - replayAt;
      expect(after.subarray(PHONE_FRAME_BYTES, resent)).toEqual(before.subarray(replayAt + PHONE_FRAME_BYTES));
      // Nothing lost: the replay starts at or before the last sample the caller heard before the clear, and what
      // played before the clear is exactly the head of what was sent.
      expect(replayAt).toBeLessThanOrEqual(playedBeforeClear);
      expect(played.subarray(0, playedBeforeClear)).toEqual(before.subarray(0, playedBeforeClear));
      // The caller heard the whole greeting: all of `before` up to the replay, then the replay to the end.
      expect(played.length).toBe(playedBeforeClear + after.length);
      // The simulated provider saw the same: one replay, nothing lost, the overlap heard twice.
      expect(peer.summary()).toMatchObject({ replays: 1, lostMs: 0, repeatedMs: (playedBeforeClear - replayAt) / 8 });
      await peer.stop();
      // Billed once, for the whole greeting.
      await eventually(async () => 1_000_000 - (await acct.balance()) === cp(greeting), 'the whole greeting billed');
    });
  });

  it('a sentence over the bot: held first, then committed; the agent learns what decided it', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const call = await placeCall(server, acct.id, {
        query: { greeting: LONG_GREETING, agent_url: agent.url, barge_in_events: '2' },
        caller: new CallerTrack([{ atMs: 3000, mulaw: interruption, label: 'रुको' }]),
      });
      const suspected = await agent.waitFor('interruption_suspected');
      const interrupted = await agent.waitFor('interrupted');
      expect(interrupted).toMatchObject({ utterance_id: 'greeting', cause: 'speech', suspect_id: suspected.suspect_id });
      // "रुको," may end at its comma (the ambiguous band: the default policy interrupts) or run on past long_min_ms.
      expect(['duration', 'policy']).toContain(interrupted.decided_by);
      expect(interrupted.decision_ms).toBeGreaterThanOrEqual(0);
      expect(agent.ofType('resumed')).toEqual([]);
      // One clear: the hold's. The commit has nothing more to clear, and nothing is replayed.
      expect(call.peer.summary()).toMatchObject({ clears: 1, replays: 0 });
      // A verdict after the outcome, and settings that contradict each other, are answered with errors; the call goes on.
      agent.send({ type: 'barge_in_verdict', suspect_id: suspected.suspect_id, verdict: 'resume' });
      expect((await agent.waitFor('error')).error).toMatchObject({ code: 'validation_error', message: expect.stringContaining('is not on hold') });
      agent.send({ type: 'config', voice: 'priya', language: 'hi-IN', barge_in: { short_max_ms: 600 } });
      expect((await agent.waitFor('error', { count: 2 })).error).toMatchObject({ code: 'validation_error', message: expect.stringContaining('short_max_ms (600)') });
      agent.send({ type: 'config', voice: 'priya', language: 'hi-IN', barge_in: { long_min_ms: 800, ambiguous_default: 'resume' } });
      expect(await agent.waitFor('configured')).toBeDefined();
      await call.peer.stop();
    });
  });

  it("the bot's own echo on the line (a speakerphone: -20 dB, 120 ms) never cuts it; a caller over the echo still does", async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const echoOnly = await placeCall(server, acct.id, {
        query: { greeting: LONG_GREETING, agent_url: agent.url, barge_in_events: '2' },
        echo: { delayMs: 120, erlDb: -20, taps: 6 },
      });
      expect(await agent.waitFor('utterance_played', { timeoutMs: 30_000 })).toMatchObject({ utterance_id: 'greeting' });
      expect(agent.ofType('interrupted')).toEqual([]);
      // Holds the echo caused before the gate had learnt the line all resumed, and lost nothing (a replay that
      // starts in a pause is not seen as one by the peer: nothing could be lost there).
      const summary = echoOnly.peer.summary();
      expect(agent.ofType('resumed')).toHaveLength(agent.ofType('interruption_suspected').length);
      expect(summary.replays).toBeLessThanOrEqual(agent.ofType('resumed').length);
      expect(summary.lostMs).toBe(0);
      await echoOnly.peer.stop();
    });
    await withAgent(async (agent) => {
      const acct = await account();
      const call = await placeCall(server, acct.id, {
        query: { greeting: LONG_GREETING, agent_url: agent.url },
        echo: { delayMs: 120, erlDb: -20, taps: 6 },
        caller: new CallerTrack([{ atMs: 5000, mulaw: interruption, label: 'रुको' }]),
      });
      expect(await agent.waitFor('interrupted', { timeoutMs: 30_000 })).toMatchObject({ utterance_id: 'greeting', cause: 'speech' });
      await call.peer.stop();
    });
  });

  it('a DTMF key cuts the bot (barge_in any), and the agent gets the digit', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const call = await placeCall(server, acct.id, { query: { greeting: LONG_GREETING, agent_url: agent.url }, dtmf: [{ digit: '5', atMs: 1500 }] });
      await call.peer.waitFor('clear_received', 10_000);
      expect((await agent.waitFor('dtmf')).digit).toBe('5');
      expect(await agent.waitFor('interrupted')).toMatchObject({ utterance_id: 'greeting', cause: 'dtmf' });
      await call.peer.stop();
    });
  });

  it('a non-interruptible greeting is not cut by speech or DTMF; the agent still hears the speech', async () => {
    await withAgent(async (agent) => {
      const acct = await account();
      const greeting = 'यह कॉल रिकॉर्ड की जा सकती है। आपकी कॉल हमारे लिए महत्वपूर्ण है।';
      const call = await placeCall(server, acct.id, {
        query: { greeting, greeting_interruptible: 'false', agent_url: agent.url },
        caller: new CallerTrack([{ atMs: 800, mulaw: interruption, label: 'रुको' }]),
        dtmf: [{ digit: '9', atMs: 1200 }],
      });
      await agent.waitFor('speech_started');
      expect(await agent.waitFor('utterance_played', { timeoutMs: 15_000 })).toMatchObject({ utterance_id: 'greeting' });
      expect(call.peer.summary().clears).toBe(0);
      expect(agent.ofType('interrupted')).toEqual([]);
      await call.peer.stop();
    });
  });

  it('barge_in=none: speech never cuts; barge_in=speech: a DTMF key does not cut', async () => {
    const acct = await account();
    const greeting = 'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है।';
    const none = await placeCall(server, acct.id, {
      query: { greeting, barge_in: 'none' },
      caller: new CallerTrack([{ atMs: 800, mulaw: interruption, label: 'रुको' }]),
    });
    const speechOnly = await placeCall(server, acct.id, { query: { greeting, barge_in: 'speech' }, dtmf: [{ digit: '1', atMs: 800 }] });
    await none.peer.waitFor('mark_echoed', 15_000, (detail) => detail === 'u1.c1.g0');
    await speechOnly.peer.waitFor('mark_echoed', 15_000, (detail) => detail === 'u1.c1.g0');
    expect(none.peer.summary().clears).toBe(0);
    expect(speechOnly.peer.summary().clears).toBe(0);
    await Promise.all([none.peer.stop(), speechOnly.peer.stop()]);
  });
});
