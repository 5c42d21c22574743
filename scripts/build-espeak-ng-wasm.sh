#!/usr/bin/env bash
# Builds the embedded engine's eSpeak NG: upstream 1.52.0 compiled by Debian bookworm's emscripten to WebAssembly with
# Raaga's glue (src/engine/espeak/wasm/raaga_espeak.c), plus its data for the eight service languages. Writes
# espeak-ng.wasm, espeak-ng.cjs, espeak-ng-data/ and BUILD.json into src/engine/espeak/wasm/. The output is
# GPL-3.0-or-later (eSpeak NG's licence). The build is byte-reproducible: --check rebuilds in a scratch directory and
# compares every byte with the committed files (exit 1 on any difference).
#
# Usage: scripts/build-espeak-ng-wasm.sh [--check] [--source <git dir>] [--work <dir>] [--keep]
#   --source  a git directory that holds the pinned commit (a clone or mirror of espeak-ng); default: fetch the one
#             commit from upstream into the work directory
#   --work    scratch directory (default: a new one under ${TMPDIR:-/tmp}); never inside the repository
#   --keep    keep the scratch directory afterwards
# Needs (Debian bookworm): emscripten node-acorn autoconf automake libtool make gcc git, and node on PATH.
set -euo pipefail

ESPEAK_TAG=1.52.0
ESPEAK_COMMIT=4870adfa25b1a32b4361592f1be8a40337c58d6c
ESPEAK_URL=https://github.com/espeak-ng/espeak-ng
LANGUAGES=(en hi ta te kn mr gu bn)
# klatt and speechPlayer stay in, as in the npm build this replaced; nothing that needs threads or audio devices.
CONFIGURE_FLAGS=(--without-async --without-mbrola --without-sonic --without-pcaudiolib)
WASM_CFLAGS=-O3
EXPORTS=(initialize set_voice set_parameter get_parameter set_seed synthesize pcm pcm_length events event_count
  text_to_phonemes synthesize_phonemes trace trace_length version alloc free)
# ENVIRONMENT=node and CommonJS: 3.1.6's ES-module output uses __dirname and require. The two NODEJS_CATCH_* off:
# a library inside a server must not install process-wide exception handlers.
EMCC_FLAGS=(-O3 -sMODULARIZE=1 -sEXPORT_NAME=createEspeakNg -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
  -sFORCE_FILESYSTEM=1 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
  "-sEXPORTED_RUNTIME_METHODS=[\"FS\"]")
TOOLCHAIN_PACKAGES=(emscripten clang-14 lld-14 llvm-14 binaryen node-acorn nodejs gcc-12 autoconf automake libtool make)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
committed="$repo/src/engine/espeak/wasm"
check=0 source_git='' work='' keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --source) source_git=$2; shift ;;
    --work) work=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$work" ]; then work=$(mktemp -d "${TMPDIR:-/tmp}/raaga-espeak-ng.XXXXXX"); else mkdir -p "$work"; fi
work=$(cd "$work" && pwd)
case "$work/" in "$repo"/*) echo "the work directory must be outside the repository ($repo)" >&2; exit 2 ;; esac
if [ "$keep" = 0 ]; then trap 'rm -rf "$work"' EXIT; fi
jobs=${JOBS:-$(nproc)}
# Debian's emscripten runs its optimizer with whatever node is on PATH; Debian's acorn lives where only Debian's own
# nodejs looks. Without this every -O2/-O3 link (and configure's compiler test) fails: "Cannot find module 'acorn'".
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
export LC_ALL=C

log() { printf '[build-espeak-ng-wasm] %s\n' "$*" >&2; }

# --- source, at the pinned commit -------------------------------------------------------------------------------
if [ -z "$source_git" ]; then
  source_git="$work/espeak-ng.git"
  log "fetching $ESPEAK_COMMIT from $ESPEAK_URL"
  git init --quiet --bare "$source_git"
  git --git-dir="$source_git" fetch --quiet --depth 1 "$ESPEAK_URL" "$ESPEAK_COMMIT"
fi
git --git-dir="$source_git" cat-file -e "$ESPEAK_COMMIT^{commit}" || { echo "$source_git lacks commit $ESPEAK_COMMIT" >&2; exit 1; }

# Everything but the dictionary sources, then only the eight languages' (all the build needs; a partial clone or a
# mirror without the large dictsource/extra blobs serves as well as a full one).
# git archive reads the whole tree and reports each blob a partial clone lacks (dictsource/extra/ru_listx, fo_list in
# the mirror used here) although it exports none of them; only those lines are dropped.
archive() {
  git --git-dir="$source_git" archive "$ESPEAK_COMMIT" -- "$@" 2> >(grep -v "^error: invalid object .* for 'dictsource/" >&2)
}
export_source() {
  mkdir -p "$1"
  archive . ':(exclude)dictsource' | tar -x -C "$1"
  [ -s "$1/configure.ac" ] || { echo "export of $ESPEAK_COMMIT failed" >&2; exit 1; }
  local paths=() language
  for language in "${LANGUAGES[@]}"; do
    paths+=("dictsource/${language}_list" "dictsource/${language}_rules")
    if git --git-dir="$source_git" cat-file -e "$ESPEAK_COMMIT:dictsource/${language}_emoji" 2>/dev/null; then
      paths+=("dictsource/${language}_emoji")
    fi
  done
  archive "${paths[@]}" | tar -x -C "$1"
  for path in "${paths[@]}"; do [ -s "$1/$path" ] || { echo "export lacks $path" >&2; exit 1; }; done
}

# --- data: compiled by a native build of the same source --------------------------------------------------------
log "native build for the data ($work/native)"
export_source "$work/native"
(
  cd "$work/native"
  ./autogen.sh >"$work/native-autogen.log" 2>&1
  ./configure "${CONFIGURE_FLAGS[@]}" >"$work/native-configure.log" 2>&1
  make -j"$jobs" src/espeak-ng >"$work/native-make.log" 2>&1
  make phsource/phonemes.stamp >>"$work/native-make.log" 2>&1
  for language in "${LANGUAGES[@]}"; do make "espeak-ng-data/${language}_dict" >>"$work/native-make.log" 2>&1; done
) || { log "native build failed; logs in $work (kept)"; trap - EXIT; exit 1; }

# --- the library and the glue, wasm32 ---------------------------------------------------------------------------
log "wasm32 build ($work/wasm)"
export_source "$work/wasm"
(
  cd "$work/wasm"
  ./autogen.sh >"$work/wasm-autogen.log" 2>&1
  emconfigure ./configure --host=wasm32-unknown-emscripten "${CONFIGURE_FLAGS[@]}" \
    CFLAGS="$WASM_CFLAGS" CXXFLAGS="$WASM_CFLAGS" >"$work/wasm-configure.log" 2>&1
  emmake make -j"$jobs" src/libespeak-ng.la >"$work/wasm-make.log" 2>&1
) || { log "wasm32 build failed; logs in $work (kept)"; trap - EXIT; exit 1; }

out="$work/out"
mkdir -p "$out"
log "linking the glue"
exported=$(printf '"_raaga_espeak_%s",' "${EXPORTS[@]}")
emcc "${EMCC_FLAGS[@]}" "-sEXPORTED_FUNCTIONS=[${exported%,}]" -I "$work/wasm/src/include" \
  "$committed/raaga_espeak.c" "$work/wasm/src/.libs/libespeak-ng.a" -o "$out/espeak-ng.cjs"

data="$out/espeak-ng-data"
mkdir -p "$data"
for file in phondata phontab phonindex intonations; do cp "$work/native/espeak-ng-data/$file" "$data/"; done
cp -R "$work/native/espeak-ng-data/lang" "$work/native/espeak-ng-data/voices" "$data/"
for language in "${LANGUAGES[@]}"; do cp "$work/native/espeak-ng-data/${language}_dict" "$data/"; done

# --- BUILD.json: where the bytes came from, and their hashes ----------------------------------------------------
toolchain=$(dpkg-query -W -f='${Package}\t${Version}\n' "${TOOLCHAIN_PACKAGES[@]}")
BUILD_OUT="$out" BUILD_GLUE="$committed/raaga_espeak.c" BUILD_TOOLCHAIN="$toolchain" \
BUILD_TAG="$ESPEAK_TAG" BUILD_COMMIT="$ESPEAK_COMMIT" BUILD_URL="$ESPEAK_URL" BUILD_LANGUAGES="${LANGUAGES[*]}" \
BUILD_CONFIGURE="${CONFIGURE_FLAGS[*]}" BUILD_CFLAGS="$WASM_CFLAGS" BUILD_EMCC="${EMCC_FLAGS[*]} -sEXPORTED_FUNCTIONS=[${exported%,}]" \
node --input-type=module <<'EOF'
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
const env = process.env;
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]);
const files = walk(env.BUILD_OUT).map((path) => relative(env.BUILD_OUT, path)).sort();
const build = {
  source: { name: 'espeak-ng', tag: env.BUILD_TAG, commit: env.BUILD_COMMIT, url: env.BUILD_URL },
  licence: 'GPL-3.0-or-later',
  glue: { file: 'raaga_espeak.c', sha256: sha256(env.BUILD_GLUE) },
  toolchain: Object.fromEntries(env.BUILD_TOOLCHAIN.trim().split('\n').map((line) => line.split('\t'))),
  flags: { configure: env.BUILD_CONFIGURE, cflags: env.BUILD_CFLAGS, emcc: env.BUILD_EMCC },
  languages: env.BUILD_LANGUAGES.split(' '),
  sha256: Object.fromEntries(files.map((file) => [file, sha256(join(env.BUILD_OUT, file))])),
};
writeFileSync(join(env.BUILD_OUT, 'BUILD.json'), `${JSON.stringify(build, null, 2)}\n`);
EOF

if [ "$check" = 1 ]; then
  log "comparing with $committed"
  status=0
  for file in espeak-ng.wasm espeak-ng.cjs BUILD.json; do
    if cmp -s "$out/$file" "$committed/$file"; then log "same bytes: $file"; else log "DIFFERENT: $file"; status=1; fi
  done
  if diff -r -q "$out/espeak-ng-data" "$committed/espeak-ng-data" >&2; then
    log "same bytes: espeak-ng-data/ ($(find "$data" -type f | wc -l) files)"
  else
    log "DIFFERENT: espeak-ng-data/"; status=1
  fi
  [ "$status" = 0 ] && log "the rebuild is byte for byte the committed build" || log "the rebuild differs from the committed build"
  exit "$status"
fi

rm -rf "$committed/espeak-ng-data"
cp "$out/espeak-ng.wasm" "$out/espeak-ng.cjs" "$out/BUILD.json" "$committed/"
cp -R "$data" "$committed/"
log "wrote $committed: espeak-ng.wasm ($(stat -c %s "$out/espeak-ng.wasm") B), espeak-ng.cjs, espeak-ng-data/ ($(find "$data" -type f | wc -l) files), BUILD.json"
