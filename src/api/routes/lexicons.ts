// The account's pronunciation lexicons (docs/lexicons.md): GET /v1/lexicons, and GET, PUT (create or replace whole),
// PATCH (entries added, replaced and removed in one step) and DELETE /v1/lexicons/{name}. Authenticated with the
// account's key; reads are not rate counted, writes count as one request of the account's rate window (they are
// checked, stored and recompiled on every instance). Every refusal is the spec's envelope; nothing is partly saved.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AccountLexicons } from '../../core/lexicons/account-lexicons.js';
import { storeCall } from '../../core/store-call.js';
import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { isAliasEntry, LEXICON_LIMITS, PHONEME_ALPHABETS, type LexiconEntry, type LexiconSummary, type StoredLexicon } from '../../store/lexicon.js';
import type { Account } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { countsInRateWindow } from '../rate-window.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { STRICT_BODY_ERRORS } from '../synthesis-request.js';

/**
 * The largest write body: a lexicon of 10,000 ordinary entries (a brand and its reading, ~100 bytes of JSON) in one
 * PUT; a bigger one is sent as several PATCHes. Above the API's own MAX_BODY_BYTES, which is sized for a text.
 */
export const LEXICON_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const NameParams = z.strictObject({
  name: z.string().meta({ description: "The lexicon's name: 1-64 of a-z, 0-9, _ and -. `default` always exists and always applies.", examples: ['brands'] }),
});

const EntrySchema = z
  .strictObject(
    {
      language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }).meta({ description: 'The language whose requests the entry applies to.' }),
      grapheme: z
        .string({ error: 'is required and must be a string' })
        .meta({
          description: `The word or phrase as written, at most ${LEXICON_LIMITS.graphemeCodePoints} characters: Latin letters in any language, else the language's own script. Matched as whole words; Latin in any case.`,
          examples: ['HDFC'],
        }),
      alias: z
        .string({ error: 'must be a string' })
        .optional()
        .meta({ description: `What to say instead, in any script, at most ${LEXICON_LIMITS.aliasCodePoints} characters; given to the engine as written (like an SSML <sub alias>).`, examples: ['एच डी एफ सी'] }),
      phoneme: z
        .string({ error: 'must be a string' })
        .optional()
        .meta({ description: `Instead of alias: the pronunciation in \`alphabet\`, at most ${LEXICON_LIMITS.phonemeCodePoints} characters. Stored and checked; no engine takes phonemes yet, so the word is spoken as written.` }),
      alphabet: z.enum(PHONEME_ALPHABETS, { error: `must be one of ${PHONEME_ALPHABETS.join(', ')}` }).optional().meta({ description: 'With phoneme: ipa or x-sampa.' }),
    },
    STRICT_BODY_ERRORS,
  )
  .meta({ id: 'LexiconEntry', description: 'A word or phrase and what to say instead: alias, or phoneme with alphabet.' });

const PutBodySchema = z.strictObject(
  {
    entries: z
      .array(EntrySchema, { error: 'must be a list of entries' })
      .max(LEXICON_LIMITS.entriesPerLexicon, `may hold at most ${LEXICON_LIMITS.entriesPerLexicon} entries`)
      .meta({ description: `Every entry of the lexicon (it is replaced whole), at most ${LEXICON_LIMITS.entriesPerLexicon}; none twice.` }),
  },
  STRICT_BODY_ERRORS,
);

const EntryRefSchema = z.strictObject(
  {
    language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }),
    grapheme: z.string({ error: 'is required and must be a string' }),
  },
  STRICT_BODY_ERRORS,
);

const PatchBodySchema = z
  .strictObject(
    {
      put: z
        .array(EntrySchema, { error: 'must be a list of entries' })
        .max(LEXICON_LIMITS.entriesPerLexicon)
        .optional()
        .meta({ description: 'Entries to add, or to replace where the lexicon has one of the same language and grapheme (Latin in any case).' }),
      delete: z
        .array(EntryRefSchema, { error: 'must be a list of {language, grapheme}' })
        .max(LEXICON_LIMITS.entriesPerLexicon)
        .optional()
        .meta({ description: 'Entries to remove, by language and grapheme; one the lexicon does not have is ignored. Removed before `put` is applied.' }),
    },
    STRICT_BODY_ERRORS,
  )
  .refine((body) => (body.put?.length ?? 0) + (body.delete?.length ?? 0) > 0, 'must put or delete at least one entry');

const SummarySchema = z
  .strictObject({
    name: z.string(),
    entry_count: z.number().int(),
    revision: z.number().int().meta({ description: 'Grows with every change to the lexicon; 0 for a `default` never written.' }),
    updated_at: z.string().nullable().meta({ description: 'When it last changed (ISO 8601); null for a `default` never written.' }),
  })
  .meta({ id: 'LexiconSummary' });

const ListSchema = z.strictObject({ lexicons: z.array(SummarySchema) }).meta({ id: 'LexiconList' });

const LexiconSchema = SummarySchema.extend({ entries: z.array(EntrySchema) }).meta({ id: 'Lexicon' });

const WrittenSchema = SummarySchema.extend({
  notes: z
    .array(z.string())
    .optional()
    .meta({ description: 'Only when the request held phoneme entries: what happens to them (no engine takes phonemes yet; their words are spoken as written).' }),
}).meta({ id: 'LexiconWritten' });

const READ_ERRORS = errorResponses(['invalid_api_key', 'not_found', 'validation_error', 'store_unavailable']);
const WRITE_ERRORS = errorResponses(['invalid_api_key', 'not_found', 'validation_error', 'rate_limit_exceeded', 'store_unavailable']);

function summaryJson(summary: LexiconSummary): z.output<typeof SummarySchema> {
  return {
    name: summary.name,
    entry_count: summary.entryCount,
    revision: summary.revision,
    updated_at: summary.revision === 0 ? null : new Date(summary.updatedAtMs).toISOString(),
  };
}

function entryJson(entry: LexiconEntry): z.output<typeof EntrySchema> {
  return isAliasEntry(entry)
    ? { language: entry.language, grapheme: entry.grapheme, alias: entry.alias }
    : { language: entry.language, grapheme: entry.grapheme, phoneme: entry.phoneme, alphabet: entry.alphabet };
}

function lexiconJson(lexicon: StoredLexicon): z.output<typeof LexiconSchema> {
  return { ...summaryJson(lexicon), entries: lexicon.entries.map(entryJson) };
}

/** What a write answers: the lexicon's summary, and a note when it held phoneme entries. */
function writtenJson(summary: LexiconSummary, entries: readonly { readonly phoneme?: string | undefined }[]): z.output<typeof WrittenSchema> {
  const phonemes = entries.filter((entry) => entry.phoneme !== undefined).length;
  if (phonemes === 0) return summaryJson(summary);
  return {
    ...summaryJson(summary),
    notes: [
      `${phonemes} phoneme ${phonemes === 1 ? 'entry was' : 'entries were'} checked and stored; no engine takes phonemes yet, so ${phonemes === 1 ? 'its word is' : 'their words are'} spoken as written (docs/lexicons.md).`,
    ],
  };
}

function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new ApiError('invalid_api_key', 'Missing API key.');
  return request.account;
}

/** A body over the lexicon routes' own limit says theirs, not the API's. */
function lexiconErrors(error: FastifyError, _request: FastifyRequest, _reply: FastifyReply): never {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    throw new ApiError('validation_error', `The request body exceeds ${LEXICON_BODY_LIMIT_BYTES} bytes; send a large lexicon as several PATCH requests of entries.`);
  }
  throw error;
}

export function registerLexiconRoutes(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  const lexicons = new AccountLexicons(ctx.store, ctx.synthesis.lexiconLibrary);
  const countWrite = countsInRateWindow(ctx.admission);
  const api = typed(app);
  api.get(
    '/v1/lexicons',
    {
      onRequest,
      schema: {
        tags: ['lexicons'],
        operationId: 'listLexicons',
        summary: "The account's lexicons by name, `default` among them. Not rate counted.",
        response: { 200: jsonResponse('The lexicons, without their entries.', ListSchema), ...READ_ERRORS },
      },
    },
    async (request) => ({ lexicons: (await storeCall(() => lexicons.list(accountOf(request).id))).map(summaryJson) }),
  );
  api.get(
    '/v1/lexicons/:name',
    {
      onRequest,
      schema: {
        tags: ['lexicons'],
        operationId: 'getLexicon',
        summary: 'One lexicon with its entries (by language, then grapheme). Not rate counted.',
        params: NameParams,
        response: { 200: jsonResponse('The lexicon.', LexiconSchema), ...READ_ERRORS },
      },
    },
    async (request) => lexiconJson(await storeCall(() => lexicons.get(accountOf(request).id, request.params.name))),
  );
  api.put(
    '/v1/lexicons/:name',
    {
      onRequest,
      preHandler: countWrite,
      bodyLimit: LEXICON_BODY_LIMIT_BYTES,
      errorHandler: lexiconErrors,
      schema: {
        tags: ['lexicons'],
        operationId: 'putLexicon',
        summary: `Creates the lexicon or replaces it whole. At most ${LEXICON_LIMITS.lexiconsPerAccount} lexicons besides default; one rate-counted request.`,
        description:
          'Every entry is checked first (length, script against its language, an alias repeating its grapheme, phoneme symbols, duplicates): one refused entry stores nothing. ' +
          'In force on every instance within a second, for the next utterance of every request, socket and call.',
        params: NameParams,
        body: PutBodySchema,
        response: { 200: jsonResponse('The lexicon as stored.', WrittenSchema), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const summary = await storeCall(() => lexicons.put(account.id, request.params.name, request.body.entries));
      return writtenJson(summary, request.body.entries);
    },
  );
  api.patch(
    '/v1/lexicons/:name',
    {
      onRequest,
      preHandler: countWrite,
      bodyLimit: LEXICON_BODY_LIMIT_BYTES,
      errorHandler: lexiconErrors,
      schema: {
        tags: ['lexicons'],
        operationId: 'editLexicon',
        summary: 'Adds, replaces and removes entries in one step (creating the lexicon when missing); one rate-counted request.',
        description: 'Refused whole when an entry is refused or the lexicon would hold more than 10,000 entries. Refusals name the entry: `put[3].grapheme`, `delete[0].language`.',
        params: NameParams,
        body: PatchBodySchema,
        response: { 200: jsonResponse('The lexicon as stored.', WrittenSchema), ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const summary = await storeCall(() => lexicons.edit(account.id, request.params.name, request.body));
      return writtenJson(summary, request.body.put ?? []);
    },
  );
  api.delete(
    '/v1/lexicons/:name',
    {
      onRequest,
      preHandler: countWrite,
      schema: {
        tags: ['lexicons'],
        operationId: 'deleteLexicon',
        summary: 'Deletes the lexicon (`default` is emptied: it always exists); one rate-counted request.',
        params: NameParams,
        response: { 204: z.null().meta({ description: 'Deleted: nothing in the body.' }), ...WRITE_ERRORS },
      },
    },
    async (request, reply) => {
      await storeCall(() => lexicons.delete(accountOf(request).id, request.params.name));
      return reply.code(204).send(null);
    },
  );
}
