/*
 * Raaga's glue over eSpeak NG, compiled with it to WebAssembly by scripts/build-espeak-ng-wasm.sh.
 *
 * Copyright (C) 2025 the Raaga authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This program is free software: you can redistribute it and/or modify it under the terms of the GNU General Public
 * License as published by the Free Software Foundation, either version 3 of the License, or (at your option) any
 * later version. This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without
 * even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public
 * License for more details. You should have received a copy of the GNU General Public License along with this
 * program. If not, see <https://www.gnu.org/licenses/>.
 *
 * Persistent and callback-free: the host initialises once, then each call speaks a whole clause into a PCM buffer
 * that grows as needed and records the clause's word and sentence events next to it, both readable from linear
 * memory until the next call. No JavaScript function is ever called from C, so no table slots, no re-entry.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <espeak-ng/espeak_ng.h>
#include <espeak-ng/speak_lib.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

/* One recorded event: type, text position (1-based, in characters of the input), length in characters,
 * audio position in ms from the start of the clause, eSpeak's sample id, and the word or sentence number. */
#define EVENT_WORDS 6

static int16_t *pcm;
static size_t pcm_length;
static size_t pcm_capacity;
static int32_t *events;
static size_t event_count;
static size_t event_capacity;
/* Set when a buffer could not grow: the clause is then reported as failed rather than cut short silently. */
static int out_of_memory;

static char *phonemes;
static size_t phonemes_capacity;
static char *trace;
static size_t trace_length;

static int grow(void **buffer, size_t *capacity, size_t needed, size_t item_size) {
	if (needed <= *capacity) return 1;
	size_t next = *capacity == 0 ? 4096 : *capacity;
	while (next < needed) next *= 2;
	void *grown = realloc(*buffer, next * item_size);
	if (grown == NULL) return 0;
	*buffer = grown;
	*capacity = next;
	return 1;
}

/* eSpeak's synchronous callback: called with each filled piece of audio and the events that fall in it. */
static int collect(short *wav, int samples, espeak_EVENT *list) {
	if (wav != NULL && samples > 0) {
		if (!grow((void **)&pcm, &pcm_capacity, pcm_length + (size_t)samples, sizeof(int16_t))) {
			out_of_memory = 1;
			return 1;
		}
		memcpy(pcm + pcm_length, wav, (size_t)samples * sizeof(int16_t));
		pcm_length += (size_t)samples;
	}
	for (espeak_EVENT *event = list; event != NULL && event->type != espeakEVENT_LIST_TERMINATED; event++) {
		if (event->type != espeakEVENT_WORD && event->type != espeakEVENT_SENTENCE) continue;
		if (!grow((void **)&events, &event_capacity, (event_count + 1) * EVENT_WORDS, sizeof(int32_t))) {
			out_of_memory = 1;
			return 1;
		}
		int32_t *slot = events + event_count * EVENT_WORDS;
		slot[0] = (int32_t)event->type;
		slot[1] = event->text_position;
		slot[2] = event->length;
		slot[3] = event->audio_position;
		slot[4] = event->sample;
		slot[5] = event->id.number;
		event_count++;
	}
	return 0;
}

static void start_clause(void) {
	pcm_length = 0;
	event_count = 0;
	out_of_memory = 0;
}

/* eSpeak's status for a clause, or EE_BUFFER_FULL when this glue ran out of memory for its output. */
static int finish_clause(espeak_ERROR status) {
	return out_of_memory ? EE_BUFFER_FULL : (int)status;
}

/** Loads eSpeak's data from `data_path` (the espeak-ng-data directory itself); the sample rate, or -1. */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_initialize(const char *data_path, int buffer_ms, int options) {
	int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, buffer_ms, data_path, options | espeakINITIALIZE_DONT_EXIT);
	if (rate > 0) espeak_SetSynthCallback(collect);
	return rate;
}

/** `lang` or `lang+variant`: 0 when loaded, else eSpeak's error (EE_NOT_FOUND for an unknown language). */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_set_voice(const char *name) {
	return (int)espeak_SetVoiceByName(name);
}

/** An espeak_PARAMETER (espeakRATE = 1, VOLUME 2, PITCH 3, RANGE 4, PUNCTUATION 5, CAPITALS 6, WORDGAP 7). */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_set_parameter(int parameter, int value) {
	return (int)espeak_SetParameter((espeak_PARAMETER)parameter, value, 0);
}

/** The parameter's current value (`current` 1) or its default (0). */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_get_parameter(int parameter, int current) {
	return espeak_GetParameter((espeak_PARAMETER)parameter, current);
}

/** Restarts eSpeak's random numbers (breath noise) as espeak_Initialize does with time(NULL). */
EMSCRIPTEN_KEEPALIVE void raaga_espeak_set_seed(int seed) {
	espeak_ng_SetRandSeed(seed);
}

/** Speaks the whole of `text` (a NUL-terminated string read with `flags`, e.g. espeakCHARS_UTF8 | espeakSSML). */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_synthesize(const char *text, int flags) {
	start_clause();
	espeak_ERROR status = espeak_Synth(text, 0, 0, POS_CHARACTER, 0, (unsigned int)flags, NULL, NULL);
	return finish_clause(status);
}

EMSCRIPTEN_KEEPALIVE int16_t *raaga_espeak_pcm(void) { return pcm; }
EMSCRIPTEN_KEEPALIVE int raaga_espeak_pcm_length(void) { return (int)pcm_length; }
EMSCRIPTEN_KEEPALIVE int32_t *raaga_espeak_events(void) { return events; }
EMSCRIPTEN_KEEPALIVE int raaga_espeak_event_count(void) { return (int)event_count; }

/**
 * espeak_TextToPhonemes over every clause of `text` (eSpeak returns one clause per call), the clauses joined by
 * " | ". `mode` is its phonememode: bit 1 IPA, bits 8-23 the separator between a word's phonemes. The string stays
 * valid until the next call; NULL when it cannot be held.
 */
EMSCRIPTEN_KEEPALIVE const char *raaga_espeak_text_to_phonemes(const char *text, int mode) {
	size_t length = 0;
	const void *cursor = text;
	if (!grow((void **)&phonemes, &phonemes_capacity, 1, 1)) return NULL;
	phonemes[0] = '\0';
	while (cursor != NULL) {
		const char *clause = espeak_TextToPhonemes(&cursor, espeakCHARS_AUTO, mode);
		size_t clause_length = clause == NULL ? 0 : strlen(clause);
		size_t joiner = cursor != NULL ? 3 : 0;
		if (!grow((void **)&phonemes, &phonemes_capacity, length + clause_length + joiner + 1, 1)) return NULL;
		if (clause_length > 0) memcpy(phonemes + length, clause, clause_length);
		length += clause_length;
		if (joiner > 0) memcpy(phonemes + length, " | ", 3);
		length += joiner;
		phonemes[length] = '\0';
	}
	return phonemes;
}

/**
 * Speaks `text` with eSpeak's phoneme trace on (`mode` as for text_to_phonemes), written to memory: one line per
 * clause, after the intonation pass. The PCM and events are kept as for raaga_espeak_synthesize.
 */
EMSCRIPTEN_KEEPALIVE int raaga_espeak_synthesize_phonemes(const char *text, int mode, int flags) {
	free(trace);
	trace = NULL;
	trace_length = 0;
	FILE *stream = open_memstream(&trace, &trace_length);
	if (stream == NULL) return EE_INTERNAL_ERROR;
	start_clause();
	espeak_SetPhonemeTrace(mode, stream);
	espeak_ERROR status = espeak_Synth(text, 0, 0, POS_CHARACTER, 0, (unsigned int)flags, NULL, NULL);
	espeak_SetPhonemeTrace(0, NULL);
	if (fclose(stream) != 0 && status == EE_OK) status = EE_INTERNAL_ERROR;
	return finish_clause(status);
}

/** The last trace, NUL-terminated (open_memstream keeps a NUL after the data); valid until the next call. */
EMSCRIPTEN_KEEPALIVE const char *raaga_espeak_trace(void) { return trace == NULL ? "" : trace; }
EMSCRIPTEN_KEEPALIVE int raaga_espeak_trace_length(void) { return (int)trace_length; }

/** eSpeak NG's version string, e.g. "1.52.0". */
EMSCRIPTEN_KEEPALIVE const char *raaga_espeak_version(void) {
	return espeak_Info(NULL);
}

EMSCRIPTEN_KEEPALIVE void *raaga_espeak_alloc(int size) { return malloc((size_t)size); }
EMSCRIPTEN_KEEPALIVE void raaga_espeak_free(void *pointer) { free(pointer); }
