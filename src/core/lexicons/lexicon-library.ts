// Each instance's copy of the accounts' lexicons, kept fresh without a restart: a request's lexicons are read from the
// store once and compiled once per version; after REFRESH_MS the next request asks the store for the account's
// lexicon version (one cheap read) and reloads only the lexicons whose revision changed. So a change made anywhere (the
// API on another instance, the CLI in another process) is in force everywhere within REFRESH_MS plus one store round
// trip and the reload (bench/lexicon.ts measures it); a change made through this instance is in force at once.

import { ApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import { DEFAULT_LEXICON, type LexiconSummary, type StoredLexicon } from '../../store/lexicon.js';
import type { LexiconStore } from '../../store/store.js';
import { storeCall } from '../store-call.js';
import { compileLexicons, NO_LEXICONS, type AppliedLexicons } from './applied-lexicons.js';
import { checkLexiconName } from './lexicon-rules.js';

/** How long a version read is trusted: a change elsewhere is in force within this plus one round trip and the reload. */
export const LEXICON_REFRESH_MS = 500;
/** Lexicons a request may name (every lexicon an account may have). */
export const MAX_REQUESTED_LEXICONS = 20;
/** Accounts whose lexicons an instance keeps, least recently used out first. */
const MAX_ACCOUNTS = 256;
/** Compiled sets (lexicon choice × language) kept per account. */
const MAX_COMPILED_PER_ACCOUNT = 16;

export interface LexiconLibraryOptions {
  readonly refreshMs?: number;
  /** Injected clock (ms) for tests of the refresh. */
  readonly now?: () => number;
}

/** What an instance knows of one account's lexicons. */
class AccountCopy {
  version = -1;
  checkedAtMs = -Infinity;
  /** Bumped by `invalidate`: a refresh that began before it does not count as fresh. */
  epoch = 0;
  refreshing: Promise<void> | undefined;
  summaries = new Map<string, LexiconSummary>();
  readonly loaded = new Map<string, StoredLexicon>();
  readonly compiled = new Map<string, Promise<AppliedLexicons>>();
}

export class LexiconLibrary {
  readonly #accounts = new Map<string, AccountCopy>();
  readonly #refreshMs: number;
  readonly #now: () => number;

  constructor(
    private readonly store: LexiconStore,
    options: LexiconLibraryOptions = {},
  ) {
    this.#refreshMs = options.refreshMs ?? LEXICON_REFRESH_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The lexicons an utterance in `language` applies: the `requested` ones (in their order) and the account's
   * `default`. A name the account has no lexicon for is a `validation_error` naming it and `field`.
   */
  async resolve(accountId: string, requested: readonly string[] | undefined, language: LanguageCode, field = 'lexicons'): Promise<AppliedLexicons> {
    const names = requestedNames(requested, field);
    const account = await this.#fresh(accountId);
    const missing = names.filter((name) => name !== DEFAULT_LEXICON && !account.summaries.has(name));
    if (missing.length > 0) {
      const list = missing.map((name) => `'${name}'`).join(', ');
      throw new ApiError(
        'validation_error',
        `Field '${field}' names ${missing.length === 1 ? 'a lexicon' : 'lexicons'} this account does not have: ${list}. Create ${missing.length === 1 ? 'it' : 'them'} with PUT /v1/lexicons/{name}, or leave ${missing.length === 1 ? 'it' : 'them'} out.`,
        { field },
      );
    }
    const present = names.filter((name) => account.summaries.has(name));
    if (present.length === 0) return NO_LEXICONS;
    const signature = `${language}|${present.map((name) => `${name}@${account.summaries.get(name)?.revision}`).join(',')}`;
    let compiled = account.compiled.get(signature);
    if (!compiled) {
      compiled = this.#compile(accountId, account, present, language);
      if (account.compiled.size >= MAX_COMPILED_PER_ACCOUNT) account.compiled.delete(account.compiled.keys().next().value as string);
      account.compiled.set(signature, compiled);
      compiled.catch(() => account.compiled.delete(signature));
    }
    return compiled;
  }

  /** After a change made through this instance: the next request reads the store again, whatever it read last. */
  invalidate(accountId: string): void {
    const account = this.#accounts.get(accountId);
    if (!account) return;
    account.epoch++;
    account.checkedAtMs = -Infinity;
  }

  async #compile(accountId: string, account: AccountCopy, names: readonly string[], language: LanguageCode): Promise<AppliedLexicons> {
    const lexicons: StoredLexicon[] = [];
    for (const name of names) {
      const summary = account.summaries.get(name);
      let lexicon = account.loaded.get(name);
      if (!lexicon || lexicon.revision !== summary?.revision) {
        const read = await storeCall(() => this.store.getLexicon(accountId, name));
        // Deleted since the version was read: the next refresh forgets it; until then it applies as empty.
        if (!read) continue;
        lexicon = read;
        account.loaded.set(name, lexicon);
      }
      lexicons.push(lexicon);
    }
    return compileLexicons(lexicons, language);
  }

  /** The account's summaries, read again when the last version read is older than the refresh interval. */
  async #fresh(accountId: string): Promise<AccountCopy> {
    let account = this.#accounts.get(accountId);
    if (account) {
      // Most recently used last.
      this.#accounts.delete(accountId);
    } else {
      account = new AccountCopy();
      if (this.#accounts.size >= MAX_ACCOUNTS) this.#accounts.delete(this.#accounts.keys().next().value as string);
    }
    this.#accounts.set(accountId, account);
    if (this.#now() - account.checkedAtMs < this.#refreshMs) return account;
    const current = account;
    current.refreshing ??= this.#refresh(accountId, current).finally(() => (current.refreshing = undefined));
    await current.refreshing;
    return current;
  }

  async #refresh(accountId: string, account: AccountCopy): Promise<void> {
    const startedAtMs = this.#now();
    const epoch = account.epoch;
    const version = await storeCall(() => this.store.lexiconVersion(accountId));
    if (version !== account.version) {
      const summaries = version === 0 ? [] : await storeCall(() => this.store.listLexicons(accountId));
      account.summaries = new Map(summaries.map((summary) => [summary.name, summary]));
      for (const [name, lexicon] of account.loaded) if (account.summaries.get(name)?.revision !== lexicon.revision) account.loaded.delete(name);
      account.compiled.clear();
      account.version = version;
    }
    if (account.epoch === epoch) account.checkedAtMs = startedAtMs;
  }
}

/** The names in precedence order, `default` last, each once; a malformed one is refused naming `field`. */
function requestedNames(requested: readonly string[] | undefined, field: string): string[] {
  if (requested && requested.length > MAX_REQUESTED_LEXICONS) {
    throw new ApiError('validation_error', `Field '${field}' names ${requested.length} lexicons; at most ${MAX_REQUESTED_LEXICONS} apply at once.`, { field });
  }
  const names: string[] = [];
  for (const name of [...(requested ?? []), DEFAULT_LEXICON]) {
    checkLexiconName(name, field);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
