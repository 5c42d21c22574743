// Callers in voices Raaga does not ship, made at run time by the tools Debian packages: espeak-ng (its voices and
// variants, at several rates), Flite's built-in voices and Festival's text2wave. Each rendering is 8 kHz mu-law with
// its leading and trailing silence cut, so a pause between two renderings is exactly the pause asked for. No audio is
// committed: a machine without a tool gets no clips of it (`available()` says which tools are there).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MULAW_SILENCE, mulawToPcm16 } from '../../src/audio/mulaw.js';
import { wavToMulaw } from '../../src/sim/caller-audio.js';

export type SpeakerTool = 'espeak-ng' | 'flite' | 'festival';

export interface Speaker {
  readonly tool: SpeakerTool;
  /** espeak-ng: a voice with an optional variant (`en+m3`, `hi`); flite: a built-in voice (`kal`, `slt`); festival: its default. */
  readonly voice: string;
  /** espeak-ng words per minute (-s); its default is 175. */
  readonly rate?: number;
  /** Which texts the speaker can say. */
  readonly language: 'en' | 'hi' | 'ta';
}

/** A sample under this (about -50 dBFS, the VAD's energy gate) is silence at a clip's ends. */
const EDGE_LEVEL = 100;

const BINARIES: Record<SpeakerTool, readonly [string, readonly string[]]> = {
  'espeak-ng': ['espeak-ng', ['--version']],
  flite: ['flite', ['-lv']],
  festival: ['text2wave', ['-h']],
};

/** The tools installed on this machine. */
export function available(): Set<SpeakerTool> {
  const found = new Set<SpeakerTool>();
  for (const [tool, [binary, args]] of Object.entries(BINARIES) as [SpeakerTool, (typeof BINARIES)[SpeakerTool]][]) {
    try {
      execFileSync(binary, [...args], { stdio: 'ignore' });
      found.add(tool);
    } catch {
      // not installed
    }
  }
  return found;
}

export function speakerName(speaker: Speaker): string {
  return `${speaker.tool} ${speaker.voice}${speaker.rate === undefined ? '' : ` -s ${speaker.rate}`}`;
}

/** Renders text and reads the files back; one temporary directory per instance. */
export class OtherSpeakers {
  readonly #dir = mkdtempSync(join(tmpdir(), 'raaga-speakers-'));

  /** `text` in `speaker`'s voice as 8 kHz mu-law, silence cut at both ends. */
  say(speaker: Speaker, text: string): Uint8Array {
    const wav = join(this.#dir, 'out.wav');
    switch (speaker.tool) {
      case 'espeak-ng':
        execFileSync('espeak-ng', ['-v', speaker.voice, ...(speaker.rate === undefined ? [] : ['-s', String(speaker.rate)]), '-w', wav, text], { stdio: 'ignore' });
        break;
      case 'flite':
        execFileSync('flite', ['-voice', speaker.voice, '-t', text, '-o', wav], { stdio: 'ignore' });
        break;
      case 'festival': {
        const txt = join(this.#dir, 'in.txt');
        writeFileSync(txt, text);
        execFileSync('text2wave', ['-o', wav, txt], { stdio: 'ignore' });
        break;
      }
    }
    return trimSilence(wavToMulaw(readFileSync(wav)));
  }

  close(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** The clip from its first to its last sample at or above EDGE_LEVEL. */
export function trimSilence(mulaw: Uint8Array): Uint8Array {
  const pcm = mulawToPcm16(mulaw);
  let first = 0;
  while (first < pcm.length && Math.abs(pcm[first]!) < EDGE_LEVEL) first++;
  let last = pcm.length - 1;
  while (last > first && Math.abs(pcm[last]!) < EDGE_LEVEL) last--;
  return mulaw.slice(first, last + 1);
}

/** `first`, `pauseMs` of line silence, then `rest`: a caller who pauses after a word and goes on. */
export function withPause(first: Uint8Array, pauseMs: number, rest: Uint8Array): Uint8Array {
  const gap = Math.round(pauseMs * 8);
  const out = new Uint8Array(first.length + gap + rest.length).fill(MULAW_SILENCE);
  out.set(first, 0);
  out.set(rest, first.length + gap);
  return out;
}

/** A command, then the request it began (said after a pause), per language. */
export const CONTINUING: Record<Speaker['language'], readonly { readonly first: string; readonly rest: string }[]> = {
  en: [
    { first: 'stop,', rest: 'I want to talk to an agent' },
    { first: 'wait,', rest: 'I have a question about my bill' },
  ],
  hi: [{ first: 'रुको,', rest: 'मुझे एजेंट से बात करनी है' }],
  ta: [{ first: 'நில்லுங்க,', rest: 'நான் ஒரு முகவரிடம் பேச வேண்டும்' }],
};

/** Short acknowledgements that must not cut the bot. */
export const FILLERS: Record<Speaker['language'], readonly string[]> = {
  en: ['haan', 'hmm', 'ok'],
  hi: ['हाँ', 'हम्म'],
  ta: ['ம்ம்', 'சரி'],
};

/** The corpus's speakers whose tools are installed: espeak-ng voices and variants at three rates, Flite, Festival. */
export function corpusSpeakers(tools: Set<SpeakerTool> = available()): Speaker[] {
  const speakers: Speaker[] = [];
  if (tools.has('espeak-ng')) {
    for (const voice of ['en', 'en+m3', 'en+f2', 'en-us', 'en+f4']) for (const rate of [140, 175, 220]) speakers.push({ tool: 'espeak-ng', voice, rate, language: 'en' });
    for (const rate of [140, 175, 220]) speakers.push({ tool: 'espeak-ng', voice: 'hi', rate, language: 'hi' }, { tool: 'espeak-ng', voice: 'ta', rate, language: 'ta' });
  }
  if (tools.has('flite')) for (const voice of ['kal', 'kal16', 'awb', 'rms', 'slt']) speakers.push({ tool: 'flite', voice, language: 'en' });
  if (tools.has('festival')) speakers.push({ tool: 'festival', voice: 'kal_diphone', language: 'en' });
  return speakers;
}
