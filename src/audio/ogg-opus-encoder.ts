// Streaming mono Ogg/Opus (RFC 7845) over libopus: OpusHead and OpusTags pages, then 20 ms packets in pages whose
// granule positions count 48 kHz samples (pre-skip included); the last page has the end-of-stream flag and a
// granule trimmed to the real sample count, so a conformant decoder returns exactly the samples that went in.
// Every call returns whole pages (so a transport may cut between pages), and a page never holds more than 500 ms.

import { concatBytes, EMPTY_BYTES } from './bytes.js';
import { newOggSerial, OGG_BEGINNING_OF_STREAM, OGG_END_OF_STREAM, OGG_MAX_LACING_VALUES, lacingValuesOf, oggPage } from './ogg-page.js';
import { OPUS_APPLICATION_VOIP, OpusPacketEncoder } from './opus-packet-encoder.js';

/** 20 ms packets: libopus's usual frame, the best trade of overhead and delay for speech. */
export const OPUS_FRAME_MS = 20;
/**
 * Speech-oriented VBR targets per input rate: narrowband input (8 kHz) gains nothing above ~16 kbit/s, wideband
 * speech is transparent-ish at 24, super-wide and full band speech at 32 (WhatsApp voice notes are 16-32 kbit/s).
 */
export const OPUS_KBPS: Readonly<Record<number, number>> = { 8000: 16, 16000: 24, 24000: 32, 48000: 32 };
/**
 * A page is closed after 25 packets (500 ms) or at the end of each encode call, whichever is first: a clause's
 * audio leaves as soon as it is encoded, and the page overhead (27 bytes + 1 per packet) stays under 2%.
 */
export const OPUS_PACKETS_PER_PAGE = 25;
/** Granule positions and pre-skip are in 48 kHz samples whatever the input rate (RFC 7845 §4). */
const GRANULE_RATE_HZ = 48000;
const VENDOR = 'Raaga (libopus 1.4)';

export interface OggOpusStreamEncoderOptions {
  /** The logical stream's serial number; random by default. */
  readonly serial?: number;
}

export class OggOpusStreamEncoder {
  readonly serial: number;
  /** Pre-skip in 48 kHz samples: the encoder's lookahead, which a decoder drops from the start. */
  readonly preSkip: number;
  readonly #opus: OpusPacketEncoder;
  readonly #scale: number;
  readonly #frame: Int16Array;
  #frameFill = 0;
  /** Real samples in (padding excluded): the final granule position counts exactly these. */
  #samplesIn = 0;
  #packets = 0;
  #sequence = 0;
  readonly #pending: Uint8Array[] = [];
  #pendingLacing = 0;
  #finished = false;
  readonly #headerPages: Uint8Array;

  constructor(readonly sampleRateHz: number, options: OggOpusStreamEncoderOptions = {}) {
    const kbps = OPUS_KBPS[sampleRateHz];
    if (kbps === undefined) throw new RangeError(`Opus output supports 8000/16000/24000/48000 Hz, got ${sampleRateHz}`);
    const frameSamples = (sampleRateHz * OPUS_FRAME_MS) / 1000;
    // VOIP, not AUDIO: every stream here is speech, and libopus's VOIP mode is tuned for the best voice quality at
    // a given bitrate (SILK and hybrid modes at these rates, formant emphasis); AUDIO favours music fidelity.
    this.#opus = new OpusPacketEncoder({ sampleRateHz, application: OPUS_APPLICATION_VOIP, bitrateBps: kbps * 1000, frameSamples });
    this.serial = options.serial ?? newOggSerial();
    this.#scale = GRANULE_RATE_HZ / sampleRateHz;
    this.preSkip = this.#opus.lookaheadSamples * this.#scale;
    this.#frame = new Int16Array(frameSamples);
    this.#headerPages = concatBytes([
      this.#page(OGG_BEGINNING_OF_STREAM, 0, [opusHead(this.preSkip, sampleRateHz)]),
      this.#page(0, 0, [opusTags()]),
    ]);
  }

  /** The identification and comment header pages: the stream's first bytes, before any encode() output. */
  header(): Uint8Array {
    return this.#headerPages;
  }

  /** Whole pages of the packets completed by `pcm` (empty while less than a frame is buffered). */
  encode(pcm: Int16Array): Uint8Array {
    if (this.#finished) throw new Error('OggOpusStreamEncoder.encode after flush() or close()');
    this.#samplesIn += pcm.length;
    const pages: Uint8Array[] = [];
    this.#push(pcm, pages);
    if (this.#pending.length > 0) pages.push(this.#closePage(0, this.#packets * this.#frame.length * this.#scale));
    return concatBytes(pages);
  }

  /**
   * Pads with silence until the lookahead's worth of delayed audio is out too, encodes it and returns the last
   * pages, the final one flagged end-of-stream with its granule trimmed to the real samples. Frees the encoder.
   */
  flush(): Uint8Array {
    if (this.#finished) return EMPTY_BYTES;
    const pages: Uint8Array[] = [];
    try {
      const frameSamples = this.#frame.length;
      // Enough whole frames that the decoder, after dropping pre-skip, has every real sample (at least one packet).
      const needed = Math.max(frameSamples, Math.ceil((this.#samplesIn + this.#opus.lookaheadSamples) / frameSamples) * frameSamples);
      this.#push(new Int16Array(needed - this.#samplesIn), pages);
      pages.push(this.#closePage(OGG_END_OF_STREAM, this.preSkip + this.#samplesIn * this.#scale));
    } finally {
      this.close();
    }
    return concatBytes(pages);
  }

  /** Frees the encoder's WebAssembly memory without finishing the stream (a stream that stopped early). */
  close(): void {
    this.#finished = true;
    this.#opus.free();
  }

  #push(pcm: Int16Array, pages: Uint8Array[]): void {
    const frame = this.#frame;
    for (let i = 0; i < pcm.length; ) {
      const n = Math.min(frame.length - this.#frameFill, pcm.length - i);
      frame.set(pcm.subarray(i, i + n), this.#frameFill);
      this.#frameFill += n;
      i += n;
      if (this.#frameFill < frame.length) break;
      this.#frameFill = 0;
      const packet = this.#opus.encode(frame);
      // A full page is closed before the next packet, never after the last: the final page always has packets.
      if (this.#pending.length === OPUS_PACKETS_PER_PAGE || this.#pendingLacing + lacingValuesOf(packet.length) > OGG_MAX_LACING_VALUES) {
        pages.push(this.#closePage(0, this.#packets * frame.length * this.#scale));
      }
      this.#pending.push(packet);
      this.#pendingLacing += lacingValuesOf(packet.length);
      this.#packets++;
    }
  }

  #closePage(headerType: number, granulePosition: number): Uint8Array {
    const page = this.#page(headerType, granulePosition, this.#pending.splice(0));
    this.#pendingLacing = 0;
    return page;
  }

  #page(headerType: number, granulePosition: number, packets: readonly Uint8Array[]): Uint8Array {
    return oggPage({ headerType, granulePosition, serial: this.serial, sequence: this.#sequence++, packets });
  }
}

/** RFC 7845 §5.1: version 1, mono, pre-skip, the input's rate (informative), no gain, channel mapping family 0. */
function opusHead(preSkip: number, inputRateHz: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1;
  head[9] = 1;
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRateHz, true);
  view.setInt16(16, 0, true);
  head[18] = 0;
  return head;
}

/** RFC 7845 §5.2: the vendor string and no user comments. */
function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode(VENDOR);
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'), 0);
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true);
  return tags;
}
