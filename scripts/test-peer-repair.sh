#!/usr/bin/env bash
# test-peer-repair.sh - checks that scripts/peer-mdl.sh finds a broken peer install, says
# which part is broken, and replaces it with a working one; and that a failed or
# interrupted install never looks complete. Run by scripts/test.sh after cargo test.
#
# Works on copies of a working install (PEERS_DIR, default /tmp/mdlx-peers, as made by
# scripts/peer-mdl.sh), never on the install itself. Instead of ../shared/peers/SETUP.sh
# (npm + crates.io, a minute), peer-mdl.sh gets a stand-in (MDLX_PEERS_SETUP) that copies
# the working install, so the whole run takes seconds and needs no network. The stand-in
# also fails unless CARGO_TARGET_DIR points at the folder bin/wc3rs reads.
#
# Prints one line per case like libtest (`test NAME ... ok`) and a `test result:` line,
# which scripts/test.sh counts in its summary. Exit status 1 when a case failed.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
peer_mdl="$root/scripts/peer-mdl.sh"
good="${PEERS_DIR:-/tmp/mdlx-peers}"
exe="wc3rs/target/release/wc3rs-peer"

echo
echo "running scripts/test-peer-repair.sh (peer-mdl.sh repairs, on copies of $good)"
for f in bin/m3v bin/w3m bin/wc3rs node/peer.js node/node_modules/war3-model "$exe"; do
  if [ ! -e "$good/$f" ]; then
    echo "test-peer-repair: no working peer install at $good ($f missing): run scripts/peer-mdl.sh first" >&2
    echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
    exit 1
  fi
done

work="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-peer-repair.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The pristine copy: the wrappers, the node packages and the wc3rs binary (not the cargo
# build folder, not mdl-out).
pristine="$work/pristine"
mkdir -p "$pristine/wc3rs/target/release"
cp -a "$good/bin" "$pristine/"
cp -al "$good/node" "$pristine/node" 2>/dev/null || cp -a "$good/node" "$pristine/node"
cp -a "$good/$exe" "$pristine/$exe"

cat >"$work/setup.sh" <<'EOF'
#!/usr/bin/env bash
# Stand-in for SETUP.sh DEST: copies $PRISTINE into DEST, or fails half way.
set -euo pipefail
dest="$1"
echo "SETUP: stand-in, copying $PRISTINE"
if [ "${CARGO_TARGET_DIR:-}" != "$dest/wc3rs/target" ]; then
  echo "SETUP: CARGO_TARGET_DIR is '${CARGO_TARGET_DIR:-}', not $dest/wc3rs/target" >&2
  exit 1
fi
echo "SETUP: npm ci (node peers)"
mkdir -p "$dest/node/node_modules"
[ -z "${SETUP_FAIL:-}" ] || { echo "npm ERR! network (simulated)" >&2; exit 1; }
# node_modules hard-linked (the cases only delete there), the rest copied.
cp -a "$PRISTINE/bin" "$PRISTINE/wc3rs" "$dest/"
rm -rf "$dest/node"
cp -al "$PRISTINE/node" "$dest/node" 2>/dev/null || cp -a "$PRISTINE/node" "$dest/node"
echo "SETUP: expected: m3v 0 passed, 7 failed; w3m 1 passed, 6 failed"
echo "m3v 0 passed, 7 failed"
echo "SETUP: done"
EOF
export PRISTINE="$pristine" MDLX_PEERS_SETUP="$work/setup.sh"
# Whatever the caller's environment says about the cargo build folder.
export CARGO_TARGET_DIR="$work/elsewhere"
unset CI

peers="$work/peers"
passed=0
failed=0
case_name=""
case_err=""

# fresh: a working copy at $peers, with a marker that a reinstall would remove.
# (node_modules hard-linked: the cases only delete there; the files they overwrite are copies.)
fresh() {
  rm -rf "$peers" "$peers".*
  mkdir -p "$peers"
  cp -a "$pristine/bin" "$pristine/wc3rs" "$peers/"
  cp -al "$pristine/node" "$peers/node" 2>/dev/null || cp -a "$pristine/node" "$peers/node"
  touch "$peers/original"
}
# run_peer_mdl: runs peer-mdl.sh --peers-only on $peers; output in $work/out, $work/err.
run_peer_mdl() {
  PEERS_DIR="$peers" bash "$peer_mdl" --peers-only >"$work/out" 2>"$work/err"
}
fail() { [ -n "$case_err" ] || case_err="$*"; }
expect_err() { grep -qF -- "$1" "$work/err" || fail "stderr lacks '$1'"; }
expect_ok() { # STATUS: succeeded, printed MDLX_PEERS_BIN, and the install works
  [ "$1" -eq 0 ] || fail "peer-mdl.sh exited with $1"
  grep -qF "export MDLX_PEERS_BIN=$peers/bin" "$work/out" || fail "no MDLX_PEERS_BIN line on stdout"
  [ -z "$(ls -d "$peers".new.* "$peers".old.* 2>/dev/null)" ] || fail "temporary folders left beside $peers"
}
expect_repaired() { # STATUS PROBLEM: detected PROBLEM, reinstalled, and a second run finds it working
  expect_ok "$1"
  expect_err "is broken: "
  expect_err "$2"
  expect_err "installed the peer tools into $peers"
  [ ! -e "$peers/original" ] || fail "the broken install was not replaced"
  run_peer_mdl || fail "second run failed"
  expect_err "peer tools in $peers work"
}
check() { # NAME: runs the function case_NAME
  case_name="$1"
  case_err=""
  "case_$1"
  if [ -z "$case_err" ]; then
    echo "test $case_name ... ok"
    passed=$((passed + 1))
  else
    echo "test $case_name ... FAILED: $case_err"
    sed 's/^/    | /' "$work/err"
    failed=$((failed + 1))
  fi
}

case_intact_install_is_kept() {
  fresh
  run_peer_mdl
  expect_ok $?
  expect_err "peer tools in $peers work"
  [ -e "$peers/original" ] || fail "a working install was replaced"
}
case_missing_node_package() {
  fresh
  rm -rf "$peers/node/node_modules/war3-model"
  run_peer_mdl
  expect_repaired $? "node_modules/war3-model is missing or empty"
}
case_gutted_node_package() {
  fresh
  rm -rf "$peers/node/node_modules/mdx-m3-viewer/dist"
  run_peer_mdl
  expect_repaired $? "node cannot load the peer packages"
}
case_missing_wc3rs_binary() {
  fresh
  rm -f "$peers/$exe"
  run_peer_mdl
  expect_repaired $? "the wc3rs peer binary $peers/$exe is missing"
}
case_truncated_wrapper() {
  fresh
  head -c 40 "$pristine/bin/w3m" >"$peers/bin/w3m"
  run_peer_mdl
  expect_repaired $? "the wrapper $peers/bin/w3m does not work"
}
case_wc3rs_binary_that_does_not_run() {
  fresh
  printf 'not a program' >"$peers/$exe"
  run_peer_mdl
  expect_repaired $? "the wrapper $peers/bin/wc3rs does not work"
}
case_interrupted_first_install() {
  rm -rf "$peers" "$peers".*
  mkdir -p "$peers.new.999/node" # what an install killed half way leaves behind
  run_peer_mdl
  expect_ok $?
  expect_err "no peer tools in $peers yet"
}
case_failed_install_changes_nothing() {
  fresh
  rm -rf "$peers/node/node_modules/war3-model"
  local status=0
  SETUP_FAIL=1 run_peer_mdl || status=$?
  [ "$status" -ne 0 ] || fail "peer-mdl.sh succeeded although the setup failed"
  expect_err "$work/setup.sh failed during 'npm ci (node peers)'"
  expect_err "$peers was not changed"
  [ -e "$peers/original" ] || fail "the old install was replaced by a failed one"
  [ -z "$(ls -d "$peers".new.*/ 2>/dev/null)" ] || fail "the half-made install was left beside $peers"
  run_peer_mdl # and the next run repairs it
  expect_repaired $? "node_modules/war3-model is missing or empty"
}
case_foreign_folder_is_not_replaced() {
  rm -rf "$peers" "$peers".*
  mkdir -p "$peers"
  echo keep >"$peers/notes.txt"
  local status=0
  run_peer_mdl || status=$?
  [ "$status" -ne 0 ] || fail "peer-mdl.sh replaced a folder that is not a peer install"
  expect_err "is not a peer install"
  [ -f "$peers/notes.txt" ] || fail "the folder's file is gone"
}

case_install_output_stays_in_its_log() {
  rm -rf "$peers" "$peers".*
  run_peer_mdl
  expect_ok $?
  ! grep -qF "0 passed, 7 failed" "$work/err" ||
    fail "the setup's smoke-test lines reached stderr, where they read as failures"
  grep -qF "0 passed, 7 failed" "$peers/install.log" || fail "the install log lacks the setup's output"
  expect_err "their install log: $peers/install.log"
}

start=$SECONDS
for c in intact_install_is_kept missing_node_package gutted_node_package missing_wc3rs_binary \
  truncated_wrapper wc3rs_binary_that_does_not_run interrupted_first_install \
  failed_install_changes_nothing foreign_folder_is_not_replaced install_output_stays_in_its_log; do
  check "$c"
done
result=ok
[ "$failed" -eq 0 ] || result=FAILED
echo
echo "test result: $result. $passed passed; $failed failed; 0 ignored; 0 measured; 0 filtered out; finished in $((SECONDS - start))s"
[ "$failed" -eq 0 ]
