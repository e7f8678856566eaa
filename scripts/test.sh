#!/usr/bin/env bash
# The test command (README, .ci/run): prepares the peer checks when it can, runs every
# test of the workspace with the corpus summaries shown, and ends with one line that sums
# up every suite:
#
#   N passed, M failed, K skipped
#
# (followed by `; ...` when something failed outside any test, e.g. a compile error or a
# test binary that crashed). The exit status is 0 only when cargo test succeeded and no
# test failed.
#
# Before cargo test, scripts/test-shape.sh (the shape gate, issue 38) and
# scripts/test-publish.sh (cargo publish --dry-run of every crate) count as suites.
# After cargo test, scripts/python-wheel.sh builds the Python wheel, and
# scripts/test-python.sh (pytest) and scripts/test-blender-addon.sh (the Blender add-on in
# Blender 3.4, bpy 4.5 and 5.0) count as suites too.
#
# The peer checks (crates/mdlx/tests/peer_mdl.rs, peer_alpha.rs, check_vs_m3v.rs) need the peer tools and
# the MDL that mdx-m3-viewer and war3-model write from the corpus; scripts/peer-mdl.sh
# installs them (node, npm, cargo, about a minute the first time) and repairs a broken
# install. Without node the checks are skipped with a message, except under CI (`CI`
# set), where they must run. When the peers are ready, scripts/test-peer-repair.sh (the
# repair logic of peer-mdl.sh, on copies; a few seconds) runs after cargo test and counts
# as one more suite.
#
# Every suite runs even when an earlier one fails (`--no-fail-fast`).
set -uo pipefail
cd "$(dirname "$0")/.."

log="$(mktemp)"        # cargo test's output
repair_log="$(mktemp)" # the extra suites: scripts/test-peer-repair.sh and the judges' self-tests
trap 'rm -f "$log" "$repair_log"' EXIT

# finish STATUS NOTE: prints the summary of every `test result:` line in the logs, with
# NOTE after it when there is one, and exits with STATUS (1 when a test failed).
finish() {
  local status="$1" note="$2" counts suites passed failed ignored broken
  counts="$(awk -v cargo_log="$log" '
    { gsub(/\033\[[0-9;]*m/, "") }
    /^test result: (ok|FAILED)\. [0-9]+ passed; / {
      suites++
      if ($3 == "FAILED." && FILENAME == cargo_log) failing++
      for (i = 5; i <= NF; i++) {
        n = $(i - 1) + 0
        if ($i ~ /^passed/) p += n
        else if ($i ~ /^failed/) f += n
        else if ($i ~ /^ignored/) g += n
      }
    }
    # cargo says this of every test binary that failed, crashed or all; the ones with a
    # FAILED result are already counted.
    /^error: [a-z]*test failed, to rerun pass / { targets++ }
    END { b = targets - failing; printf "%d %d %d %d %d\n", suites, p, f, g, (b > 0 ? b : 0) }' "$log" "$repair_log")"
  read -r suites passed failed ignored broken <<<"$counts"
  if [ "$broken" -gt 0 ]; then
    local what="test binaries"
    [ "$broken" -eq 1 ] && what="test binary"
    note="${note:+$note; }$broken $what crashed or stopped before its result line: see above"
  fi
  if { [ "$failed" -gt 0 ] || [ "$broken" -gt 0 ]; } && [ "$status" -eq 0 ]; then status=1; fi
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && [ -z "$note" ]; then
    note="failed outside any test result (exit status $status): see above"
  fi
  echo "test.sh: $suites test suites reported"
  echo "$passed passed, $failed failed, $ignored skipped${note:+; $note}"
  exit "$status"
}

# prepare SCRIPT WHAT: runs SCRIPT, which installs or repairs an outside judge and prints
# the variables that point the tests at it, and evaluates them. Returns 1 when it could
# not; under CI (`CI` set) that stops the run instead, since the tests must not skip.
prepare() {
  local env
  if env="$("$1")"; then
    eval "$env"
    return 0
  fi
  if [ -n "${CI:-}" ]; then
    finish 1 "$2 could not be prepared under CI ($1 failed, see above): no test ran"
  fi
  echo "test.sh: $2 not prepared (see above); the tests that need it will be skipped" >&2
  return 1
}

# The peer tools and their MDL (peer_mdl.rs, peer_alpha.rs); Pillow's pixels for the
# texture corpus test (textures_corpus.rs); the glTF judges of gltf_export.rs: the Khronos
# glTF-Validator and three.js in Node, and Blender 3.4 (blender-judge.sh installs Debian's
# blender package when it is missing). mdx-m3-viewer's renderer in headless Chromium judges
# `mdlx render` (render_vs_m3v.rs); Pillow reads the animations it writes (render_output.rs).
# Blender 3.4, 4.5 and 5.0 (blender-versions.sh: the PyPI bpy modules in venvs under
# ~/.cache/mdlx, about 3 minutes to install on a fresh machine) carry models through
# Blender and back (blender_roundtrip.rs) and test the round-trip tool and its edits.
peers_ready= judges_ready= blender_ready= blenders_ready=
prepare scripts/peer-mdl.sh "the peer checks" && peers_ready=1
prepare scripts/pillow-oracle.sh "the Pillow oracle" || true
prepare scripts/gltf-judges.sh "the glTF judges" && judges_ready=1
prepare scripts/blender-judge.sh "Blender" && blender_ready=1
prepare scripts/blender-versions.sh "Blender 3.4, 4.5 and 5.0" && blenders_ready=1
prepare scripts/sarif-judge.sh "the SARIF judges" || true
prepare scripts/smpq-judge.sh "StormLib (smpq)" || true
prepare scripts/m3v-render.sh "mdx-m3-viewer's renderer" || true
prepare scripts/pillow-anim.sh "Pillow for animations" || true
prepare scripts/view-judge.sh "the browser test of mdlx view" || true

status=0
note=""
# suite SCRIPT: a script that prints libtest-style results, run as one more suite.
suite() {
  bash "$1" 2>&1 | tee -a "$repair_log"
  local s="${PIPESTATUS[0]}"
  if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then status="$s"; fi
}
# The library's shape (scripts/shape.py --gate: file and function lengths, cycles between
# modules, exact copies; its table in the log) and every crate packed and built as
# crates.io would (cargo publish --dry-run), before the tests write anything.
suite scripts/test-shape.sh
suite scripts/test-publish.sh

# Colors when the output is a terminal (cargo sees a pipe); the summary strips them.
if [ -t 1 ]; then export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-always}"; fi
cargo test --workspace --locked --no-fail-fast -- --nocapture 2>&1 | tee "$log"
cargo_status="${PIPESTATUS[0]}"

if [ "$cargo_status" -ne 0 ] && [ "$status" -eq 0 ]; then status="$cargo_status"; fi
if [ "$cargo_status" -ne 0 ] && ! grep -q '^test result: ' "$log"; then
  note="cargo test failed before any suite ran (exit status $cargo_status; a compile error?): see above"
fi
# The library without its features (scripts/test-lean.sh: its unit tests).
suite scripts/test-lean.sh
# The peer-repair logic, and the judges' own tests (against expectations computed
# without them).
if [ -n "$peers_ready" ]; then suite scripts/test-peer-repair.sh; fi
if [ -n "$judges_ready" ]; then suite scripts/test-gltf-judges.sh; fi
if [ -n "$blender_ready" ]; then suite scripts/test-blender-judge.sh; fi
if [ -n "$blenders_ready" ]; then suite scripts/test-blender-roundtrip.sh; fi
# The Python bindings (crates/mdlx-py) and the Blender add-on built on them: the wheel is
# built after cargo test, in its target folder (maturin from PyPI, in a cached venv), then
# pytest runs on it and the add-on is tried in every Blender there is (3.4, bpy 4.5, 5.0).
if wheel_env="$(scripts/python-wheel.sh)"; then
  eval "$wheel_env"
  suite scripts/test-python.sh
  suite scripts/test-blender-addon.sh
else
  { echo "test scripts/python-wheel.sh builds and installs the wheel ... FAILED"
    echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"; } | tee -a "$repair_log"
  status=1
fi
finish "$status" "$note"
