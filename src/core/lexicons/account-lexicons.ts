// The lexicon use cases an account (the API) and the operator (`raaga lexicon`) share: list, read, replace, edit and
// delete, each entry checked by lexicon-rules.ts before anything is written (one refused entry: nothing stored), the
// store's caps turned into `validation_error`s, and this instance's copy refreshed at once after each change.
// `default` always exists: read, it is empty until written; deleted, it is emptied.

import { ApiError } from '../../errors.js';
import { DEFAULT_LEXICON, LexiconLimitError, type LexiconEntry, type LexiconSummary, type StoredLexicon } from '../../store/lexicon.js';
import type { LexiconStore } from '../../store/store.js';
import type { LexiconLibrary } from './lexicon-library.js';
import { checkEntryRef, checkLexiconEntries, checkLexiconName, JSON_ENTRY_LABEL, type EntryLabel, type LexiconEntryInput } from './lexicon-rules.js';

/** A batch of changes as a client sends it: entries to add or replace, and entries to remove. */
export interface LexiconEditInput {
  readonly put?: readonly LexiconEntryInput[] | undefined;
  readonly delete?: readonly { readonly language: string; readonly grapheme: string }[] | undefined;
}

export class AccountLexicons {
  constructor(
    private readonly store: LexiconStore,
    /** This instance's copy (the server's); absent in the CLI, whose changes servers see at their next version read. */
    private readonly library?: LexiconLibrary,
  ) {}

  /** Every lexicon of the account by name, `default` among them even before it is written. */
  async list(accountId: string): Promise<LexiconSummary[]> {
    const stored = await this.store.listLexicons(accountId);
    if (stored.some((lexicon) => lexicon.name === DEFAULT_LEXICON)) return [...stored];
    return [...stored, emptyDefault()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The lexicon whole; `not_found` naming it when the account has none of that name. */
  async get(accountId: string, name: string): Promise<StoredLexicon> {
    checkLexiconName(name);
    const lexicon = await this.store.getLexicon(accountId, name);
    if (lexicon) return lexicon;
    if (name === DEFAULT_LEXICON) return { ...emptyDefault(), entries: [] };
    throw notFound(name);
  }

  async put(accountId: string, name: string, inputs: readonly LexiconEntryInput[], label: EntryLabel = JSON_ENTRY_LABEL): Promise<LexiconSummary> {
    checkLexiconName(name);
    const entries = checkLexiconEntries(inputs, label);
    return this.#changed(accountId, () => this.store.putLexicon(accountId, name, entries));
  }

  async edit(accountId: string, name: string, input: LexiconEditInput, label: EntryLabel = (index) => `put[${index}]`): Promise<LexiconSummary> {
    checkLexiconName(name);
    const put: LexiconEntry[] = checkLexiconEntries(input.put ?? [], label);
    const remove = (input.delete ?? []).map((ref, index) => checkEntryRef(ref, `delete[${index}]`));
    return this.#changed(accountId, () => this.store.editLexicon(accountId, name, { put, remove }));
  }

  /** Deletes the lexicon (`default`: empties it); `not_found` when the account has none of that name. */
  async delete(accountId: string, name: string): Promise<void> {
    checkLexiconName(name);
    const deleted = await this.#changed(accountId, () => this.store.deleteLexicon(accountId, name));
    if (!deleted && name !== DEFAULT_LEXICON) throw notFound(name);
  }

  async #changed<T>(accountId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof LexiconLimitError) throw new ApiError('validation_error', `Nothing was saved: ${error.message}.`, { field: error.limit === 'entriesPerLexicon' ? 'entries' : 'name' });
      throw error;
    } finally {
      // Even a failed write may have reached the store (a timeout after Redis ran it): read it again either way.
      this.library?.invalidate(accountId);
    }
  }
}

function emptyDefault(): LexiconSummary {
  return { name: DEFAULT_LEXICON, entryCount: 0, revision: 0, updatedAtMs: 0 };
}

function notFound(name: string): ApiError {
  return new ApiError('not_found', `This account has no lexicon '${name}'; GET /v1/lexicons lists those it has.`);
}
