// A call's streamed text (the agent's `text_append` and `text_flush`): an LLM's tokens as they arrive, cut into
// segments speakable at once (core/text/streamed-text.ts) and each queued in the session as a text of its own, so it
// is admitted, billed, synthesized and marked exactly as a text is, with the pause its boundary calls for. The agent
// sees one utterance: one `end_of_utterance`, `cancellation` or `error`, one `utterance_played`, and an
// `interrupted` whose `heard_text` and `played_ms` span every segment. Whole texts sent while a streamed utterance is
// open wait behind it. A segment's own id is the utterance's, a mark and its number: no agent id can contain the mark.

import { StreamedText, type StreamedSegment } from '../core/text/streamed-text.js';
import { ApiError } from '../errors.js';
import type { CallEvent, SessionReply, UtteranceOffset } from './call-events.js';
import type { QueuedText } from './call-text-queue.js';
import type { InterruptedUtterance } from './playback-ledger.js';
import type { SpeakRequest } from './synthesis-session.js';

/** The text of one streamed utterance, at most: what one `text` may hold. */
export const MAX_STREAMED_CODE_POINTS = 3000;
/** A clause is cut once this much text waits (the chunker's first chunk is 100); no pending text grows past 300. */
const STREAMED_TEXT_OPTIONS = { clauseCutChars: 60, maxPendingChars: 300 };
const SEGMENT_MARK = '#';
/** Answered streamed utterances kept for the events their audio may still bring (a late `interrupted`, a mark). */
const KEPT_ANSWERED = 32;

/** What the streamed text does to the call. */
export interface StreamedTextPort {
  /** Queues a text in the call's session: a segment, or a whole text that waited behind a streamed utterance. */
  speak(request: SpeakRequest): void;
  /** Takes the texts `which` picks out of the session's queue: they will not start, nor be answered by the session. */
  withdraw(which: (text: QueuedText) => boolean): QueuedText[];
  /** A reply to the agent, as the session's own are sent. */
  reply(message: SessionReply): void;
  event(event: CallEvent): void;
}

type ErrorReply = Extract<SessionReply, { type: 'error' }>;

interface Stream {
  readonly no: number;
  readonly id: string;
  readonly interruptible: boolean;
  readonly text: StreamedText;
  /** open: takes appends; flushed: every segment is queued; cut: stopped by a cancel or barge-in; failed: refused. */
  state: 'open' | 'flushed' | 'cut' | 'failed';
  codePoints: number;
  /** The text of each segment handed to the session, in order. */
  readonly segments: string[];
  /** Per segment, the audio the provider confirmed played (its `utterance_played`). */
  readonly playedMs: (number | undefined)[];
  answered: number;
  charactersUsed: number;
  durationSeconds: number;
  truncated: boolean;
  error: ErrorReply | undefined;
  /** Whole texts that came while it was open, spoken after it (or answered with `cancellation` when it is cut). */
  readonly behind: SpeakRequest[];
  replied: boolean;
  playedReported: boolean;
}

export interface StreamOpening {
  /** The utterance id the opening append named; absent: `newId()` names it. */
  readonly utteranceId: string | undefined;
  readonly interruptible: boolean | undefined;
}

export class CallStreamedText {
  #open: Stream | undefined;
  #count = 0;
  /** Streams whose segments may still be answered, played or interrupted. */
  readonly #live = new Map<number, Stream>();

  constructor(
    private readonly port: StreamedTextPort,
    /** Whole texts that may wait behind an open streamed utterance (the call's queue capacity). */
    private readonly capacity: number,
  ) {}

  /** True while text is waiting to be spoken: pending in the open utterance, or whole texts behind it. */
  get speechPending(): boolean {
    const open = this.#open;
    return open !== undefined && (open.text.pending.trim() !== '' || open.behind.length > 0);
  }

  /** True while the pending text is not interruptible (barge-in must leave it alone). */
  get pendingProtected(): boolean {
    return this.speechPending && this.#open?.interruptible === false;
  }

  /**
   * Appends a piece to the open streamed utterance, opening one when none is (or when the piece names another id: the
   * open one is flushed first); what the piece completes is queued at once. Throws ApiError `text_too_long` when the
   * utterance would pass MAX_STREAMED_CODE_POINTS: the piece is dropped, the utterance goes on.
   */
  append(piece: string, opening: StreamOpening, newId: () => string): void {
    if (this.#open && opening.utteranceId !== undefined && opening.utteranceId !== this.#open.id) this.flush();
    const codePoints = [...piece].length;
    const held = this.#open?.codePoints ?? 0;
    if (held + codePoints > MAX_STREAMED_CODE_POINTS) {
      throw new ApiError(
        'text_too_long',
        `A streamed utterance holds at most ${MAX_STREAMED_CODE_POINTS} code points (it has ${held}; this text_append has ${codePoints}); the append was dropped. Send text_flush and stream the rest as a new utterance.`,
      );
    }
    const stream = this.#open ?? this.#opened(opening.utteranceId ?? newId(), opening.interruptible !== false);
    stream.codePoints += codePoints;
    for (const segment of stream.text.append(piece)) this.#queue(stream, segment);
  }

  /** Ends the open streamed utterance: what is pending is queued as its last segment. Nothing open: nothing to do. */
  flush(): void {
    const stream = this.#open;
    if (!stream) return;
    const last = stream.text.flush();
    if (last) this.#queue(stream, last);
    stream.state = 'flushed';
    this.#open = undefined;
    this.#release(stream);
    this.#maybeFinish(stream);
  }

  /** A whole text: queued now, or behind the open streamed utterance. */
  say(request: SpeakRequest): void {
    const open = this.#open;
    if (!open) {
      this.port.speak(request);
      return;
    }
    if (open.behind.length >= this.capacity) {
      this.port.reply({
        type: 'error',
        error: { code: 'validation_error', message: `${this.capacity} texts are already waiting behind the streamed utterance '${open.id}'; send text_flush, or wait for end_of_utterance before sending more.` },
        ...(request.utteranceId !== undefined ? { utterance_id: request.utteranceId } : {}),
      });
      return;
    }
    open.behind.push(request);
  }

  /**
   * A stop went through (a cancel, a barge-in: the session dropped its queue): every streamed utterance not yet over is
   * cut, its pending text discarded. Returns their ids, for `interrupted`.
   */
  cut(): Set<number> {
    const cut = new Set<number>();
    for (const stream of this.#live.values()) {
      if (stream.state === 'cut' || stream.state === 'failed' || stream.replied) continue;
      this.#cutOne(stream);
      cut.add(stream.no);
    }
    return cut;
  }

  /** A session reply: true when it was a segment's (the utterance's one reply follows once every segment has one). */
  reply(message: SessionReply): boolean {
    if (message.type !== 'end_of_utterance' && message.type !== 'cancellation' && message.type !== 'error') return false;
    const found = this.#segmentOf(message.utterance_id);
    // A segment of an utterance long answered and forgotten: nothing more is owed for it.
    if (!found) return streamIdOf(message.utterance_id) !== message.utterance_id;
    const { stream } = found;
    stream.answered++;
    if (message.type === 'error') {
      stream.error ??= { ...message, utterance_id: stream.id };
      if (stream.state === 'open' || stream.state === 'flushed') this.#fail(stream);
    } else {
      stream.charactersUsed += message.characters_used;
      stream.durationSeconds += message.duration_seconds;
      if (message.type === 'end_of_utterance') stream.truncated ||= message.truncated;
      else if (stream.state === 'open' || stream.state === 'flushed') this.#cutOne(stream);
    }
    this.#maybeFinish(stream);
    return true;
  }

  /** A segment's last mark came back: true when it was a segment's (one `utterance_played` follows for the whole). */
  played(utteranceId: string | undefined, durationMs: number): boolean {
    const found = this.#segmentOf(utteranceId);
    if (!found) return streamIdOf(utteranceId) !== utteranceId;
    found.stream.playedMs[found.segment] = durationMs;
    this.#maybePlayed(found.stream);
    return true;
  }

  /**
   * What each cut utterance got to play, the segments of one streamed utterance as one: the segments played whole,
   * then what the ledger says of the first one outstanding. A streamed utterance in `cut` (from cut()) with none
   * outstanding is reported too when some of it was heard (its pending text was the part cut).
   */
  interrupted(cleared: readonly InterruptedUtterance[], cut: ReadonlySet<number>): InterruptedUtterance[] {
    const out: InterruptedUtterance[] = [];
    const merged = new Map<Stream, { heard: string; playedMs: number; open: boolean; index: number }>();
    for (const entry of cleared) {
      const found = this.#segmentOf(entry.utteranceId);
      if (!found) {
        out.push({ ...entry, utteranceId: streamIdOf(entry.utteranceId) });
        continue;
      }
      const { stream, segment } = found;
      let whole = merged.get(stream);
      if (!whole) {
        whole = { ...this.#playedWhole(stream), open: true, index: out.length };
        merged.set(stream, whole);
        out.push(entry); // replaced below
      }
      whole.playedMs += entry.playedMs;
      if (!whole.open || stream.playedMs[segment] !== undefined) continue;
      const text = stream.segments[segment] ?? '';
      if (entry.heardText === text.trim()) {
        whole.heard += text;
      } else {
        whole.heard += entry.heardText;
        whole.open = false;
      }
    }
    for (const no of cut) {
      const stream = this.#live.get(no);
      if (!stream || merged.has(stream)) continue;
      const whole = this.#playedWhole(stream);
      if (whole.heard.trim() !== '') out.push({ utteranceId: stream.id, playedMs: Math.round(whole.playedMs), heardText: whole.heard.trim() });
    }
    for (const [stream, whole] of merged) out[whole.index] = { utteranceId: stream.id, playedMs: Math.round(whole.playedMs), heardText: whole.heard.trim() };
    return out;
  }

  /** A barge-in event's place in an utterance: a segment's offset as one into its streamed utterance. */
  event(event: CallEvent): CallEvent {
    if (event.type === 'interruption_suspected') return { ...event, at: this.#offset(event.at) };
    if (event.type === 'resumed') return { ...event, from: this.#offset(event.from) };
    return event;
  }

  #opened(id: string, interruptible: boolean): Stream {
    const stream: Stream = {
      no: ++this.#count,
      id,
      interruptible,
      text: new StreamedText(STREAMED_TEXT_OPTIONS),
      state: 'open',
      codePoints: 0,
      segments: [],
      playedMs: [],
      answered: 0,
      charactersUsed: 0,
      durationSeconds: 0,
      truncated: false,
      error: undefined,
      behind: [],
      replied: false,
      playedReported: false,
    };
    this.#open = stream;
    this.#live.set(stream.no, stream);
    return stream;
  }

  #queue(stream: Stream, segment: StreamedSegment): void {
    const index = stream.segments.length;
    stream.segments.push(segment.text);
    this.port.speak({
      text: segment.text,
      utteranceId: `${stream.id}${SEGMENT_MARK}${stream.no}.${index}`,
      interruptible: stream.interruptible,
      segment: { trailingPauseMs: segment.pauseAfterMs },
    });
  }

  /** The whole texts that waited behind it go to the session, in order. */
  #release(stream: Stream): void {
    for (const request of stream.behind.splice(0)) this.port.speak(request);
  }

  #cutOne(stream: Stream): void {
    stream.text.discard();
    stream.state = 'cut';
    if (this.#open === stream) this.#open = undefined;
  }

  /** A segment was refused: the rest will not be spoken (its queued segments leave the session's queue). */
  #fail(stream: Stream): void {
    stream.text.discard();
    stream.state = 'failed';
    if (this.#open === stream) this.#open = undefined;
    stream.answered += this.port.withdraw((text) => this.#segmentOf(text.utteranceId)?.stream === stream).length;
    this.#release(stream);
  }

  /** Once every segment is answered (and no more can come), the agent gets the utterance's one reply. */
  #maybeFinish(stream: Stream): void {
    if (stream.replied || stream.state === 'open' || stream.answered < stream.segments.length) return;
    stream.replied = true;
    const id = { utterance_id: stream.id };
    const used = { characters_used: stream.charactersUsed, duration_seconds: round6(stream.durationSeconds) };
    if (stream.state === 'failed' && stream.error) {
      this.port.reply(stream.error);
    } else if (stream.state === 'cut') {
      this.port.reply({ type: 'cancellation', ...used, ...id });
      for (const request of stream.behind.splice(0)) {
        this.port.reply({ type: 'cancellation', characters_used: 0, duration_seconds: 0, ...(request.utteranceId !== undefined ? { utterance_id: request.utteranceId } : {}) });
      }
    } else if (stream.segments.length === 0) {
      this.port.reply({ type: 'error', error: { code: 'validation_error', message: 'The streamed utterance had no text to speak; append text before text_flush.' }, ...id });
    } else {
      this.port.reply({ type: 'end_of_utterance', ...used, truncated: stream.truncated, ...(stream.truncated ? { reason: 'step_budget_exceeded' as const } : {}), ...id });
    }
    this.#maybePlayed(stream);
    this.#prune();
  }

  /** A flushed utterance whose every segment played, once answered: one `utterance_played` for the whole. */
  #maybePlayed(stream: Stream): void {
    if (!stream.replied || stream.playedReported || stream.state !== 'flushed' || stream.segments.length === 0) return;
    if (stream.playedMs.filter((ms) => ms !== undefined).length < stream.segments.length) return;
    stream.playedReported = true;
    const durationMs = stream.playedMs.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
    this.port.event({ type: 'utterance_played', utteranceId: stream.id, durationMs });
  }

  /** The oldest answered utterances go once more than KEPT_ANSWERED are kept (a call may stream hundreds). */
  #prune(): void {
    let answered = 0;
    for (const stream of this.#live.values()) if (stream.replied) answered++;
    for (const stream of this.#live.values()) {
      if (answered <= KEPT_ANSWERED) return;
      if (!stream.replied) continue;
      this.#live.delete(stream.no);
      answered--;
    }
  }

  /** The segments played whole from the start: their text and audio. */
  #playedWhole(stream: Stream): { heard: string; playedMs: number } {
    let heard = '';
    let playedMs = 0;
    for (let index = 0; index < stream.segments.length; index++) {
      const ms = stream.playedMs[index];
      if (ms === undefined) break;
      heard += stream.segments[index];
      playedMs += ms;
    }
    return { heard, playedMs };
  }

  #offset(at: UtteranceOffset | undefined): UtteranceOffset | undefined {
    const found = this.#segmentOf(at?.utteranceId);
    if (!at || !found) return at;
    let before = 0;
    for (let index = 0; index < found.segment; index++) before += found.stream.playedMs[index] ?? 0;
    return { utteranceId: found.stream.id, offsetMs: before + at.offsetMs };
  }

  #segmentOf(utteranceId: string | undefined): { stream: Stream; segment: number } | undefined {
    const mark = utteranceId?.lastIndexOf(SEGMENT_MARK) ?? -1;
    if (utteranceId === undefined || mark < 0) return undefined;
    // Only ids this class made have the mark: agent ids cannot (agent-protocol.ts), nor `utt_<n>` defaults.
    const [no, segment] = utteranceId.slice(mark + 1).split('.').map(Number);
    const stream = this.#live.get(no ?? Number.NaN);
    return stream && segment !== undefined && Number.isInteger(segment) ? { stream, segment } : undefined;
  }
}

/** The streamed utterance's id in a segment's (the id itself for any other). */
function streamIdOf(utteranceId: string | undefined): string | undefined {
  const mark = utteranceId?.lastIndexOf(SEGMENT_MARK) ?? -1;
  return mark < 0 ? utteranceId : utteranceId?.slice(0, mark);
}

/** duration_seconds keeps the session's six decimals when summed. */
function round6(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}
