#!/usr/bin/env bash
# peer-mdl.sh - prepares the input of the peer checks (crates/mdlx/tests/peer_mdl.rs,
# peer_alpha.rs): the peer tools, and the MDL that mdx-m3-viewer and war3-model write
# from every corpus MDX.
#
#   scripts/peer-mdl.sh               prints `export MDLX_PEER_MDL=/tmp/mdlx-peers/mdl-out`
#                                     and `export MDLX_PEERS_BIN=/tmp/mdlx-peers/bin` (the
#                                     peers' command-line wrappers, for tests/peer_alpha.rs)
#   scripts/peer-mdl.sh --peers-only  steps 1-2 only; prints the MDLX_PEERS_BIN line
#
# 1. Checks the peer tools in /tmp/mdlx-peers: node loads mdx-m3-viewer and war3-model
#    from node/node_modules, and each wrapper bin/{m3v,w3m,wc3rs} converts a small
#    corpus MDX (so the wc3rs binary must be at wc3rs/target/release/wc3rs-peer, where
#    its wrapper looks). Says which part is broken, if one is.
# 2. When the check fails (or there is no install yet), installs the peer tools afresh
#    with ../shared/peers/SETUP.sh (about a minute; needs node, npm, cargo and the npm
#    registry / crates.io) into a temporary folder beside /tmp/mdlx-peers, checks that
#    one the same way, and only then renames it into place: an install that is
#    interrupted or fails never looks complete. The wc3rs peer is built with
#    CARGO_TARGET_DIR pointing at the folder its wrapper reads, whatever the caller's
#    environment says.
# 3. Runs tools/peer-mdl/convert-all.js over ../shared/corpus/mdx into
#    /tmp/mdlx-peers/mdl-out/{m3v,w3m}/NAME.mdl (about 15 s), unless that output is
#    complete and newer than convert-all.js and this script.
# 4. Prints the variable assignments on stdout; everything else goes to stderr.
#
# Paths are relative to the repository root (../shared beside it), wherever this is run
# from. PEERS_DIR overrides /tmp/mdlx-peers. Runs that share a PEERS_DIR take turns (a
# lock file beside it, PEERS_DIR.lock). MDLX_PEERS_SETUP overrides the setup script
# (scripts/test-peer-repair.sh uses it to test the repair without the network).
#
# How scripts/test.sh uses it (before the test command):
#   eval "$(scripts/peer-mdl.sh)"
# Under CI (`CI` set) the tests fail when MDLX_PEER_MDL is missing, so a failure here
# (exit status 1, message on stderr) must stop the run rather than be ignored.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
convert="$root/tools/peer-mdl/convert-all.js"
corpus="$root/../shared/corpus/mdx"
setup="${MDLX_PEERS_SETUP:-$root/../shared/peers/SETUP.sh}"
# A small MDX that all three peers read and write (SETUP.sh's own smoke-test model).
probe="$corpus/flowtsohg__mdx-m3-viewer__clients__example__resources__SmileyGW_004.mdx"
wc3rs_exe="wc3rs/target/release/wc3rs-peer" # where bin/wc3rs looks (relative to the install)

say() { printf 'peer-mdl: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

peers_only=
case "${1:-}" in
  "") ;;
  --peers-only) peers_only=1 ;;
  *) die "unknown argument '$1' (usage: scripts/peer-mdl.sh [--peers-only])" ;;
esac

for tool in node npm; do
  command -v "$tool" >/dev/null ||
    die "$tool not found: the peer checks need Node.js (v20) and npm to run mdx-m3-viewer and war3-model"
done
[ -d "$corpus" ] || die "corpus not found at $corpus (../shared/corpus beside the repository)"
[ -f "$probe" ] || die "the probe model $probe is missing from the corpus"

# An absolute PEERS_DIR: SETUP.sh and the wrappers work from absolute paths.
peers="${PEERS_DIR:-/tmp/mdlx-peers}"
peers="${peers%/}"
[ -n "$peers" ] || die "PEERS_DIR must name a folder other than /"
mkdir -p "$(dirname "$peers")"
peers="$(cd "$(dirname "$peers")" && pwd)/$(basename "$peers")"
out="$peers/mdl-out"

# Temporary paths removed on exit, whatever happens.
cleanup_paths=()
cleanup() { [ ${#cleanup_paths[@]} -eq 0 ] || rm -rf "${cleanup_paths[@]}"; }
trap cleanup EXIT

# One run at a time per PEERS_DIR (other worktrees may share /tmp/mdlx-peers).
if command -v flock >/dev/null; then
  exec 9>"$peers.lock"
  if ! flock -n 9; then
    say "waiting for another peer-mdl.sh using $peers (lock $peers.lock)"
    flock 9
  fi
fi

# limited CMD...: CMD with a time limit, so that a wrapper that hangs counts as broken.
limited() {
  if command -v timeout >/dev/null; then timeout 120 "$@"; else "$@"; fi
}

# peers_problem DIR: prints what is wrong with the peer install in DIR and fails, or
# prints nothing and succeeds when every peer works.
peers_problem() {
  local dir="$1" pkg w scratch err rc
  [ -d "$dir" ] || { echo "$dir does not exist"; return 1; }
  for pkg in mdx-m3-viewer war3-model; do
    [ -f "$dir/node/node_modules/$pkg/package.json" ] ||
      { echo "$dir/node/node_modules/$pkg is missing or empty (npm ci did not finish)"; return 1; }
  done
  # The entry points that convert-all.js and node/peer.js load.
  if ! err="$(node -e '
      const d = process.argv[1];
      const load = (m) => require(require.resolve(m, { paths: [d] }));
      const Model = load("mdx-m3-viewer/dist/cjs/parsers/mdlx/model").default;
      if (typeof Model !== "function") throw new Error("mdx-m3-viewer: no Model class");
      const w = load("war3-model");
      if (typeof w.parseMDX !== "function" || typeof w.generateMDL !== "function")
        throw new Error("war3-model: no parseMDX/generateMDL");
    ' "$dir/node" 2>&1)"; then
    echo "node cannot load the peer packages from $dir/node/node_modules: $(printf '%s\n' "$err" | grep -m1 -E 'Error|error' || printf '%s' "$err" | head -1)"
    return 1
  fi
  [ -f "$dir/node/peer.js" ] || { echo "$dir/node/peer.js (the m3v/w3m driver) is missing"; return 1; }
  for w in m3v w3m wc3rs; do
    [ -f "$dir/bin/$w" ] && [ -x "$dir/bin/$w" ] ||
      { echo "the wrapper $dir/bin/$w is missing or not executable"; return 1; }
  done
  [ -f "$dir/$wc3rs_exe" ] && [ -x "$dir/$wc3rs_exe" ] ||
    { echo "the wc3rs peer binary $dir/$wc3rs_exe is missing (never built, or built into another CARGO_TARGET_DIR)"; return 1; }
  # Each wrapper converts the probe (run in a command substitution: the EXIT trap does
  # not reach here, so the scratch folder is removed on every path).
  scratch="$(mktemp -d)"
  for w in m3v w3m wc3rs; do
    # CARGO_TARGET_DIR set to where the wrapper looks, should it try to build anyway.
    rc=0
    CARGO_TARGET_DIR="$dir/wc3rs/target" limited "$dir/bin/$w" convert "$probe" "$scratch/$w.mdx" \
      >"$scratch/$w.log" 2>&1 </dev/null || rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$scratch/$w.mdx" ]; then
      err="$(tail -n 2 "$scratch/$w.log" | tr '\n' ' ' | sed 's/ *$//')"
      if [ "$rc" -ne 0 ]; then err="exit status $rc${err:+: $err}"; else err="exit status 0 but no output${err:+: $err}"; fi
      echo "the wrapper $dir/bin/$w does not work: '$w convert $(basename "$probe") OUT.mdx' failed ($err)"
      rm -rf "$scratch"
      return 1
    fi
  done
  rm -rf "$scratch"
}

# install_peers: runs SETUP.sh into a fresh temporary folder beside $peers, checks it, and
# renames it to $peers (replacing a broken install).
install_peers() {
  local tmp="$peers.new.$$" log="$peers.new.$$.log" problem last
  command -v cargo >/dev/null || die "cargo not found: installing the peer tools builds the wc3 crate (wc3rs peer)"
  [ -f "$setup" ] || die "peer setup script not found at $setup"
  if [ -e "$peers" ] && [ -n "$(ls -A "$peers")" ] &&
    [ ! -e "$peers/bin" ] && [ ! -e "$peers/node" ] && [ ! -e "$peers/wc3rs" ] && [ ! -e "$peers/mdl-out" ]; then
    die "$peers is not a peer install (no bin/, node/, wc3rs/ or mdl-out/ in it) and is not empty: not replacing it; set PEERS_DIR to another folder"
  fi
  rm -rf "$peers".new.* "$peers".old.* # left by interrupted runs (we hold the lock)
  cleanup_paths+=("$tmp")
  say "installing the peer tools with $setup into $tmp (npm ci + cargo build --release, about a minute; log $log)"
  # SETUP's own output (npm and cargo progress, and a smoke test whose expected result
  # reads "m3v 0 passed, 7 failed": the peers' own fixtures, which they are known to fail)
  # goes to the log only; a failure shows its end.
  if ! env -u CARGO_BUILD_TARGET CARGO_TARGET_DIR="$tmp/wc3rs/target" bash "$setup" "$tmp" </dev/null >"$log" 2>&1; then
    last="$(grep '^SETUP: ' "$log" | tail -n 1 || true)"
    tail -n 20 "$log" | sed 's/^/  | /' >&2
    die "$setup failed${last:+ during '${last#SETUP: }'} (log: $log); $peers was not changed"
  fi
  if ! problem="$(peers_problem "$tmp")"; then
    die "$setup finished but its install does not work: $problem (log: $log); $peers was not changed"
  fi
  if [ -e "$peers" ]; then
    mv "$peers" "$peers.old.$$"
    cleanup_paths+=("$peers.old.$$")
  fi
  mv "$tmp" "$peers"
  mv "$log" "$peers/install.log"
  say "installed the peer tools into $peers (their install log: $peers/install.log)"
}

if [ ! -e "$peers" ]; then
  say "no peer tools in $peers yet"
  install_peers
elif ! problem="$(peers_problem "$peers")"; then
  say "the peer install in $peers is broken: $problem"
  say "reinstalling it from scratch"
  install_peers
else
  say "peer tools in $peers work (m3v, w3m, wc3rs)"
fi

if [ -z "$peers_only" ]; then
  stamp="$out/.complete"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$convert" ] && [ "$stamp" -nt "$(dirname "$convert")/peers.js" ] &&
    [ "$stamp" -nt "${BASH_SOURCE[0]}" ] &&
    [ -d "$out/m3v" ] && [ -d "$out/w3m" ]; then
    say "using $out (up to date)"
  else
    say "converting $corpus with the peers into $out"
    tmp="$out.tmp.$$"
    rm -rf "$out".tmp.*
    cleanup_paths+=("$tmp")
    node "$convert" "$peers/node" "$corpus" "$tmp" >&2 ||
      die "tools/peer-mdl/convert-all.js failed converting $corpus for $out (the peer install in $peers passed its check)"
    rm -rf "$out"
    mv "$tmp" "$out"
    touch "$stamp"
  fi
  printf 'export MDLX_PEER_MDL=%q\n' "$out"
fi
printf 'export MDLX_PEERS_BIN=%q\n' "$peers/bin"
