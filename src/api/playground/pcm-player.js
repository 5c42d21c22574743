// Plays 16-bit little-endian PCM frames through WebAudio as they arrive, back to back without gaps; stop()
// silences everything already scheduled (what a Stop button needs after it sends `cancel`).

/** Scheduling a little ahead absorbs network jitter between frames. */
const START_DELAY_S = 0.08;

export class PcmPlayer {
  constructor(sampleRateHz) {
    this.sampleRateHz = sampleRateHz;
    this.context = new AudioContext();
    this.nextStart = 0;
    this.sources = new Set();
    this.secondsQueued = 0;
  }

  push(arrayBuffer) {
    const samples = new Int16Array(arrayBuffer.slice(0, arrayBuffer.byteLength - (arrayBuffer.byteLength % 2)));
    if (samples.length === 0) return;
    const buffer = this.context.createBuffer(1, samples.length, this.sampleRateHz);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) channel[i] = samples[i] / 32768;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.context.destination);
    const now = this.context.currentTime;
    this.nextStart = Math.max(this.nextStart, now + START_DELAY_S);
    source.start(this.nextStart);
    this.nextStart += buffer.duration;
    this.secondsQueued += buffer.duration;
    this.sources.add(source);
    source.onended = () => this.sources.delete(source);
  }

  /** Seconds of scheduled audio still to play. */
  remaining() {
    return Math.max(0, this.nextStart - this.context.currentTime);
  }

  stop() {
    for (const source of this.sources) source.stop();
    this.sources.clear();
    this.nextStart = 0;
  }

  close() {
    this.stop();
    return this.context.close();
  }
}
