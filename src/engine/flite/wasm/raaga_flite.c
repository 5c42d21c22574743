/*
 * Raaga's persistent API over Flite 2.3-current (festvox/flite 6c9f20d), compiled with emscripten by
 * scripts/build-flite-wasm.sh into flite.wasm + flite.cjs. This file is Raaga's own and is distributed under Flite's
 * BSD-style terms (COPYING beside it); no Flite file is modified by the build.
 *
 * One instance keeps voices loaded and speaks clause after clause: load a .flitevox once (a path in the instance's
 * MEMFS, where the engine copies only the checked voice bytes), set features per clause, synthesize one clause, read
 * the samples and each token's word times from the utterance, unload. Everything that calls into flite runs under
 * setjmp: flite's cst_error() longjmps back here (this build has no -DDIE_ON_ERROR), the call returns -1 and
 * raaga_flite_failed() says so; the engine then replaces the instance, whose heap may be inconsistent.
 *
 * Why some things are done as they are:
 * - Feature names are interned: flite's feat_set keeps the name pointer (a freed name is silently lost), and its own
 *   feat_own_string conses a new copy on every call (a leak per clause). A handful of names, kept forever.
 * - srand(1) before every clause: flite's MLSA excitation draws rand(); a fresh instance starts from musl's initial
 *   state, which srand(1) restores, so clause N of a persistent instance is sample for sample what a fresh one says.
 * - A voice remembers the features it was loaded with, so a clause that sets none (no pitch shift) gets the voice's
 *   own values back instead of the previous clause's.
 */

#include <malloc.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <emscripten.h>

#include "flite.h"

void usenglish_init(cst_voice *v);
cst_lexicon *cmulex_init(void);
void cmu_indic_lang_init(cst_voice *v);
cst_lexicon *cmu_indic_lex_init(void);
void cmu_grapheme_lang_init(cst_voice *v);
cst_lexicon *cmu_grapheme_lex_init(void);

/* A loaded voice and the features it had when loaded. */
typedef struct {
    cst_voice *voice;
    cst_features *original;
} raaga_voice;

/* Per token of the last utterance, seven int32 words (see raaga_flite_tokens). */
#define TOKEN_FIELDS 7

static jmp_buf raaga_jmp;
static int raaga_failed_flag = 0;
static cst_utterance *last_utt = NULL;
static int *token_records = NULL;
static int token_count = 0;

#define MAX_INTERNED 64
static char *interned[MAX_INTERNED];
static int interned_count = 0;

/* Arms cst_error()'s longjmp for the calling function; on an error that function returns `fail`. */
#define RAAGA_GUARD(fail)                                                                                              \
    do {                                                                                                               \
        cst_errjmp = &raaga_jmp;                                                                                       \
        if (setjmp(raaga_jmp) != 0) {                                                                                  \
            cst_errjmp = NULL;                                                                                         \
            raaga_failed_flag = 1;                                                                                     \
            return (fail);                                                                                             \
        }                                                                                                              \
    } while (0)
#define RAAGA_UNGUARD() (cst_errjmp = NULL)

static const char *intern(const char *name)
{
    int i;
    for (i = 0; i < interned_count; i++)
        if (strcmp(interned[i], name) == 0) return interned[i];
    if (interned_count == MAX_INTERNED) return NULL;
    interned[interned_count] = strdup(name);
    return interned[interned_count++];
}

static void release_utterance(void)
{
    if (last_utt != NULL) delete_utterance(last_utt);
    last_utt = NULL;
    free(token_records);
    token_records = NULL;
    token_count = 0;
}

EMSCRIPTEN_KEEPALIVE int raaga_flite_initialize(void)
{
    RAAGA_GUARD(-1);
    flite_init();
    /* What flite's tools/make_lang_list writes for LANGS usenglish cmu_indic_lang cmu_grapheme_lang. */
    flite_add_lang("eng", usenglish_init, cmulex_init);
    flite_add_lang("usenglish", usenglish_init, cmulex_init);
    flite_add_lang("cmu_indic_lang", cmu_indic_lang_init, cmu_indic_lex_init);
    flite_add_lang("cmu_grapheme_lang", cmu_grapheme_lang_init, cmu_grapheme_lex_init);
    RAAGA_UNGUARD();
    return 0;
}

/* 1 once a call ended in flite's cst_error(): the instance must not be used again. */
EMSCRIPTEN_KEEPALIVE int raaga_flite_failed(void) { return raaga_failed_flag; }

/* The voice at `path`, or NULL when flite refuses it (its reason went to stderr) or failed (raaga_flite_failed). */
EMSCRIPTEN_KEEPALIVE raaga_voice *raaga_flite_voice_load(const char *path)
{
    cst_voice *voice;
    raaga_voice *handle;
    RAAGA_GUARD(NULL);
    voice = flite_voice_load(path);
    if (voice == NULL) {
        RAAGA_UNGUARD();
        return NULL;
    }
    handle = cst_alloc(raaga_voice, 1);
    handle->voice = voice;
    handle->original = new_features();
    feat_copy_into(voice->features, handle->original);
    RAAGA_UNGUARD();
    return handle;
}

EMSCRIPTEN_KEEPALIVE int raaga_flite_voice_free(raaga_voice *handle)
{
    RAAGA_GUARD(-1);
    /* The kept utterance points into the voice's models. */
    release_utterance();
    delete_features(handle->original);
    delete_voice(handle->voice);
    cst_free(handle);
    RAAGA_UNGUARD();
    return 0;
}

EMSCRIPTEN_KEEPALIVE int raaga_flite_voice_sample_rate(raaga_voice *handle)
{
    return get_param_int(handle->voice->features, "sample_rate", 0);
}

/* What `--setf name=value` does, for this voice until reset: 0, or -1 when the name cannot be interned. */
EMSCRIPTEN_KEEPALIVE int raaga_flite_set_float(raaga_voice *handle, const char *name, double value)
{
    const char *kept = intern(name);
    if (kept == NULL) return -1;
    RAAGA_GUARD(-1);
    feat_set_float(handle->voice->features, kept, (float)value);
    RAAGA_UNGUARD();
    return 0;
}

/* The feature back to what the voice was loaded with (absent if it had none). */
EMSCRIPTEN_KEEPALIVE int raaga_flite_reset_feature(raaga_voice *handle, const char *name)
{
    const char *kept = intern(name);
    if (kept == NULL) return -1;
    RAAGA_GUARD(-1);
    if (feat_present(handle->original, kept))
        feat_set(handle->voice->features, kept, feat_val(handle->original, kept));
    else
        feat_remove(handle->voice->features, kept);
    RAAGA_UNGUARD();
    return 0;
}

static float segment_end(const cst_item *segment) { return segment == NULL ? 0.0f : item_feat_float(segment, "end"); }

/* Word times of the words of `token` (in the Token relation): the first's start, the last's end, in microseconds. */
static void token_times(const cst_item *token, int *start_us, int *end_us)
{
    const cst_item *word, *structure, *syllable, *first, *last;
    *start_us = -1;
    *end_us = -1;
    for (word = item_daughter(token); word != NULL; word = item_next(word)) {
        structure = item_as(word, "SylStructure");
        if (structure == NULL) continue;
        for (syllable = item_daughter(structure); syllable != NULL; syllable = item_next(syllable)) {
            first = item_daughter(syllable);
            if (first == NULL) continue;
            if (*start_us < 0) *start_us = (int)(1e6f * segment_end(item_prev(item_as(first, "Segment"))) + 0.5f);
        }
        syllable = item_last_daughter(structure);
        last = syllable == NULL ? NULL : item_last_daughter(syllable);
        if (last != NULL) *end_us = (int)(1e6f * segment_end(last) + 0.5f);
    }
}

static void record_tokens(cst_utterance *u)
{
    const cst_item *token;
    int n = 0, *record;
    for (token = relation_head(utt_relation(u, "Token")); token != NULL; token = item_next(token)) n++;
    token_records = n == 0 ? NULL : (int *)malloc(sizeof(int) * TOKEN_FIELDS * n);
    token_count = 0;
    for (token = relation_head(utt_relation(u, "Token")); token != NULL && token_records != NULL; token = item_next(token)) {
        record = token_records + TOKEN_FIELDS * token_count++;
        record[0] = (int)strlen(item_feat_string(token, "whitespace"));
        record[1] = (int)strlen(item_feat_string(token, "prepunctuation"));
        record[2] = (int)strlen(item_feat_string(token, "name"));
        record[3] = (int)strlen(item_feat_string(token, "punc"));
        record[4] = item_feat_int(token, "file_pos");
        token_times(token, &record[5], &record[6]);
    }
}

/* Speaks one clause (UTF-8): the number of samples, or -1 when flite failed (raaga_flite_failed). */
EMSCRIPTEN_KEEPALIVE int raaga_flite_synthesize(raaga_voice *handle, const char *text)
{
    cst_utterance *u;
    cst_wave *wave;
    RAAGA_GUARD(-1);
    release_utterance();
    srand(1);
    u = flite_synth_text(text, handle->voice);
    if (u == NULL) {
        RAAGA_UNGUARD();
        return -1;
    }
    last_utt = u;
    record_tokens(u);
    RAAGA_UNGUARD();
    wave = utt_wave(u);
    return wave == NULL ? 0 : wave->num_samples;
}

/* The last clause's 16-bit mono samples, and their rate. */
EMSCRIPTEN_KEEPALIVE const short *raaga_flite_samples(void)
{
    cst_wave *wave = last_utt == NULL ? NULL : utt_wave(last_utt);
    return wave == NULL ? NULL : wave->samples;
}

EMSCRIPTEN_KEEPALIVE int raaga_flite_sample_rate(void)
{
    cst_wave *wave = last_utt == NULL ? NULL : utt_wave(last_utt);
    return wave == NULL ? 0 : wave->sample_rate;
}

/*
 * The last clause's tokens in text order, TOKEN_FIELDS int32 each: the byte lengths of the whitespace before it, its
 * prepunctuation, its name and its punctuation; flite's file_pos; its words' start and end in microseconds (-1 when
 * none of its words has a phone).
 */
EMSCRIPTEN_KEEPALIVE const int *raaga_flite_tokens(void) { return token_records; }
EMSCRIPTEN_KEEPALIVE int raaga_flite_token_count(void) { return token_count; }

/* Frees the last clause's utterance (synthesize and voice_free do so too). */
EMSCRIPTEN_KEEPALIVE void raaga_flite_release(void) { release_utterance(); }

/* Bytes in use on the instance's heap: what a loaded voice costs is the difference across its load. */
EMSCRIPTEN_KEEPALIVE int raaga_flite_heap_used(void) { return (int)mallinfo().uordblks; }

EMSCRIPTEN_KEEPALIVE void *raaga_flite_alloc(int bytes) { return malloc((size_t)bytes); }
EMSCRIPTEN_KEEPALIVE void raaga_flite_free(void *pointer) { free(pointer); }
