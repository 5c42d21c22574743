/*
 * bench/espeak-build.ts's native reference: Debian's libespeak-ng (the library behind the espeak-ng command) driven
 * with the calls the embedded engine's glue makes (src/engine/espeak/wasm/raaga_espeak.c and espeak-instance.ts:
 * synchronous output, rate, volume, pitch and range set before each clause, UTF-8 + SSML + [[phonemes]] input), so
 * its CPU per clause compares with the WebAssembly builds' on the same texts.
 *
 * Usage: espeak-native-timer <espeak-ng-data dir> <warm-up runs> <runs>, cells on stdin, one per line:
 *   <voice>\t<rate>\t<range>\t<text>
 * Prints, per run of a cell: <cell index>\t<CPU ns>\t<wall ns>\t<samples>. Warm-up runs print nothing.
 * Build: cc -O2 -o espeak-native-timer espeak-native-timer.c -lespeak-ng   (Debian: libespeak-ng-dev)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later (it links eSpeak NG)
 */

#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long samples;

static int count(short *wav, int length, espeak_EVENT *events) {
	(void)wav;
	(void)events;
	if (length > 0) samples += length;
	return 0;
}

static long long ns(clockid_t clock) {
	struct timespec now;
	clock_gettime(clock, &now);
	return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

struct cell {
	char voice[128];
	int rate;
	int range;
	char *text;
};

static char loaded[128];

static void speak(const struct cell *cell) {
	/* Loaded only when it changes, as the engine's EspeakInstance does: a load rereads the dictionary. */
	if (strcmp(loaded, cell->voice) != 0) {
		espeak_SetVoiceByName(cell->voice);
		snprintf(loaded, sizeof(loaded), "%s", cell->voice);
	}
	espeak_SetParameter(espeakRATE, cell->rate, 0);
	espeak_SetParameter(espeakVOLUME, 100, 0);
	espeak_SetParameter(espeakPITCH, 50, 0);
	espeak_SetParameter(espeakRANGE, cell->range, 0);
	samples = 0;
	espeak_Synth(cell->text, 0, 0, POS_CHARACTER, 0, espeakCHARS_UTF8 | espeakSSML | espeakPHONEMES, NULL, NULL);
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: %s <espeak-ng-data dir> <warm-up runs> <runs> < cells\n", argv[0]);
		return 2;
	}
	if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, argv[1], espeakINITIALIZE_DONT_EXIT) <= 0) {
		fprintf(stderr, "espeak_Initialize failed for %s\n", argv[1]);
		return 1;
	}
	espeak_SetSynthCallback(count);
	int warm_up = atoi(argv[2]), runs = atoi(argv[3]);

	struct cell cells[64];
	int n = 0;
	char *line = NULL;
	size_t capacity = 0;
	ssize_t length;
	while (n < 64 && (length = getline(&line, &capacity, stdin)) > 0) {
		if (line[length - 1] == '\n') line[--length] = '\0';
		char *voice = strtok(line, "\t"), *rate = strtok(NULL, "\t"), *range = strtok(NULL, "\t"), *text = strtok(NULL, "");
		if (voice == NULL || rate == NULL || range == NULL || text == NULL) continue;
		snprintf(cells[n].voice, sizeof(cells[n].voice), "%s", voice);
		cells[n].rate = atoi(rate);
		cells[n].range = atoi(range);
		cells[n].text = strdup(text);
		n++;
	}
	free(line);

	for (int i = 0; i < n; i++) {
		for (int run = 0; run < warm_up; run++) speak(&cells[i]);
	}
	for (int i = 0; i < n; i++) {
		speak(&cells[i]);
		for (int run = 0; run < runs; run++) {
			long long cpu = ns(CLOCK_PROCESS_CPUTIME_ID), wall = ns(CLOCK_MONOTONIC);
			speak(&cells[i]);
			printf("%d\t%lld\t%lld\t%ld\n", i, ns(CLOCK_PROCESS_CPUTIME_ID) - cpu, ns(CLOCK_MONOTONIC) - wall, samples);
		}
	}
	return 0;
}
