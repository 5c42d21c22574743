// Synthesized utterances kept for reuse: IVR greetings, menus and "please hold" are spoken thousands of times a
// day with the same words and voice. An entry is the utterance's whole output as it was yielded (encoded pieces
// plus the counters billing and call marks read at each piece), so a replay is indistinguishable from synthesis to
// every consumer: same bytes, same per-chunk billing on a cancel, same marks. In memory, least recently used
// first out, bounded in bytes, with an optional disk tier that survives restarts (prompt-cache-disk.ts). Keys say
// everything that determines the audio (prompt-cache-key.ts).

import type { CacheTier, DiskEvent, RecordedUtterance } from './recorded-utterance.js';

export type { RecordedUtterance, UtteranceCounters } from './recorded-utterance.js';

export type PromptCacheEvent = 'hit' | 'miss' | 'store' | 'evict' | 'fill' | DiskEvent;

export interface PromptCacheOptions {
  /** Bound on the audio held in memory; 0 turns the memory tier off. */
  readonly maxBytes: number;
  /** The disk tier, when configured (PROMPT_CACHE_DISK_BYTES). */
  readonly disk?: CacheTier | undefined;
  /** Hits, misses, stores and evictions of both tiers, with the bytes concerned (metrics). */
  readonly onEvent?: (event: PromptCacheEvent, bytes: number) => void;
  /**
   * Preset-voice audio is shared by every account (PROMPT_CACHE_SHARED): fewer misses, but one tenant can tell from
   * a fast answer that another recently had the same text spoken. Off by default.
   */
  readonly sharedAcrossAccounts?: boolean;
}

/** One entry may take at most this share of the cache, so a long one-off text cannot flush the prompts. */
const MAX_ENTRY_SHARE = 8;

export class PromptCache {
  readonly #maxBytes: number;
  readonly #disk: CacheTier | undefined;
  readonly #onEvent: (event: PromptCacheEvent, bytes: number) => void;
  /** Insertion order is recency order: a hit moves the entry to the end. */
  readonly #entries = new Map<string, RecordedUtterance>();
  /** Keys being synthesized in the background to be kept (an utterance its caller cut short). */
  readonly #fills = new Map<string, Promise<void>>();
  #bytes = 0;

  readonly sharedAcrossAccounts: boolean;

  constructor(options: PromptCacheOptions) {
    this.sharedAcrossAccounts = options.sharedAcrossAccounts === true;
    this.#maxBytes = options.maxBytes;
    this.#disk = options.disk;
    this.#onEvent = options.onEvent ?? (() => undefined);
  }

  get enabled(): boolean {
    return this.#maxBytes > 0 || this.#disk !== undefined;
  }

  /** Audio bytes held on disk (0 without a disk tier). */
  get diskBytes(): number {
    return this.#disk?.bytes ?? 0;
  }

  /** Memory first, then disk (a disk hit is brought into memory); a miss in both is counted once. */
  async lookup(key: string): Promise<RecordedUtterance | undefined> {
    const inMemory = this.#entries.get(key);
    if (inMemory) return this.get(key);
    const onDisk = await this.#disk?.read(key);
    if (!onDisk) {
      this.#onEvent('miss', 0);
      return undefined;
    }
    this.#keep(key, onDisk);
    return onDisk;
  }

  /**
   * Runs `synthesize` (which puts `key` when it finishes) unless the key is already held or being filled; its
   * failure (a busy or closing engine) only means the entry is not kept. Emits `fill`.
   */
  fill(key: string, synthesize: () => Promise<void>): void {
    if (this.#entries.has(key) || this.#fills.has(key)) return;
    this.#onEvent('fill', 0);
    const running = synthesize()
      .catch(() => undefined)
      .finally(() => this.#fills.delete(key));
    this.#fills.set(key, running);
  }

  /** Resolves when background fills and the disk tier's writes so far are done. */
  async flushed(): Promise<void> {
    await Promise.all([...this.#fills.values()]);
    await this.#disk?.idle();
  }

  /** Audio bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): RecordedUtterance | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#onEvent('miss', 0);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#onEvent('hit', entry.sizeBytes);
    return entry;
  }

  /** Keeps `entry` in memory (unless too large for the bound) and writes it to disk in the background. */
  put(key: string, entry: RecordedUtterance): void {
    this.#keep(key, entry);
    void this.#disk?.write(key, entry);
  }

  #keep(key: string, entry: RecordedUtterance): void {
    if (this.#maxBytes <= 0 || entry.sizeBytes > this.#maxBytes / MAX_ENTRY_SHARE) return;
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#bytes -= previous.sizeBytes;
      this.#onEvent('evict', previous.sizeBytes);
    }
    this.#entries.set(key, entry);
    this.#bytes += entry.sizeBytes;
    this.#onEvent('store', entry.sizeBytes);
    for (const [oldest, evicted] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= evicted.sizeBytes;
      this.#onEvent('evict', evicted.sizeBytes);
    }
  }
}
