#!/usr/bin/env bash
# peer-mdl.sh - prepares the input of the peer MDL check (crates/mdlx/tests/peer_mdl.rs):
# the MDL that mdx-m3-viewer and war3-model write from every corpus MDX.
#
#   scripts/peer-mdl.sh            prints `export MDLX_PEER_MDL=/tmp/mdlx-peers/mdl-out`
#                                  and `export MDLX_PEERS_BIN=/tmp/mdlx-peers/bin` (the
#                                  peers' command-line wrappers, for tests/peer_alpha.rs)
#
# 1. Installs the peer tools into /tmp/mdlx-peers (../shared/peers/SETUP.sh, about a
#    minute; needs node, npm, cargo and the npm registry / crates.io) unless
#    /tmp/mdlx-peers/bin/m3v is already there.
# 2. Runs tools/peer-mdl/convert-all.js over ../shared/corpus/mdx into
#    /tmp/mdlx-peers/mdl-out/{m3v,w3m}/NAME.mdl (about 15 s), unless that output is
#    complete and newer than convert-all.js and this script.
# 3. Prints the variable assignment on stdout; everything else goes to stderr.
#
# Paths are relative to the repository root (../shared beside it), wherever this is run
# from. PEERS_DIR overrides /tmp/mdlx-peers.
#
# How .ci/run uses it (before the test command):
#   eval "$(scripts/peer-mdl.sh)"
#   cargo test --workspace --locked -- --nocapture
# Under CI (`CI` set) the test fails when MDLX_PEER_MDL is missing, so a failure here
# (exit status 1, message on stderr) must stop the run rather than be ignored.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
peers="${PEERS_DIR:-/tmp/mdlx-peers}"
out="$peers/mdl-out"
convert="$root/tools/peer-mdl/convert-all.js"
corpus="$root/../shared/corpus/mdx"
setup="$root/../shared/peers/SETUP.sh"

say() { printf 'peer-mdl: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in node npm; do
  command -v "$tool" >/dev/null ||
    die "$tool not found: the peer MDL check needs Node.js (v20) and npm to run mdx-m3-viewer and war3-model"
done
[ -d "$corpus" ] || die "corpus not found at $corpus (../shared/corpus beside the repository)"

if [ ! -x "$peers/bin/m3v" ]; then
  [ -f "$setup" ] || die "peer setup script not found at $setup"
  say "installing the peer tools into $peers"
  bash "$setup" "$peers" >&2 || die "installing the peer tools failed (see above)"
fi
[ -d "$peers/node/node_modules/mdx-m3-viewer" ] && [ -d "$peers/node/node_modules/war3-model" ] ||
  die "$peers/node/node_modules lacks mdx-m3-viewer or war3-model; remove $peers and run again"

stamp="$out/.complete"
if [ -f "$stamp" ] && [ "$stamp" -nt "$convert" ] && [ "$stamp" -nt "${BASH_SOURCE[0]}" ]; then
  say "using $out (up to date)"
else
  say "converting $corpus with the peers into $out"
  tmp="$out.tmp.$$"
  rm -rf "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  node "$convert" "$peers/node" "$corpus" "$tmp" >&2 || die "convert-all.js failed"
  rm -rf "$out"
  mv "$tmp" "$out"
  trap - EXIT
  touch "$stamp"
fi

printf 'export MDLX_PEER_MDL=%q\n' "$out"
printf 'export MDLX_PEERS_BIN=%q\n' "$peers/bin"
