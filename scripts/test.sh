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
# The peer checks (crates/mdlx/tests/peer_mdl.rs, peer_alpha.rs) need the peer tools and
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
repair_log="$(mktemp)" # scripts/test-peer-repair.sh's
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

peers_ready=
if peer_env="$(scripts/peer-mdl.sh)"; then
  eval "$peer_env"
  peers_ready=1
elif [ -n "${CI:-}" ]; then
  echo "test.sh: the peer checks could not be prepared (see the peer-mdl: lines above)" >&2
  finish 1 "the peer checks could not be prepared under CI (scripts/peer-mdl.sh failed): no test ran"
else
  echo "test.sh: peer checks not prepared (see above); they will be skipped" >&2
fi

# Pillow's pixels for the texture corpus test (crates/mdlx/tests/textures_corpus.rs).
if pillow_env="$(scripts/pillow-oracle.sh)"; then
  eval "$pillow_env"
elif [ -n "${CI:-}" ]; then
  finish 1 "the Pillow oracle could not be prepared under CI (scripts/pillow-oracle.sh failed): no test ran"
else
  echo "test.sh: Pillow oracle not prepared (see above); the texture comparison will be skipped" >&2
fi

# The glTF judges (crates/mdlx/tests/gltf_export.rs): the Khronos glTF-Validator and
# three.js in Node (scripts/gltf-judges.sh), and Blender 3.4 (scripts/blender-judge.sh,
# which installs Debian's blender package when it is missing).
judges_ready=
if judges_env="$(scripts/gltf-judges.sh)"; then
  eval "$judges_env"
  judges_ready=1
elif [ -n "${CI:-}" ]; then
  finish 1 "the glTF judges could not be prepared under CI (scripts/gltf-judges.sh failed): no test ran"
else
  echo "test.sh: glTF judges not prepared (see above); the glTF checks will be skipped" >&2
fi
blender_ready=
if blender_env="$(scripts/blender-judge.sh)"; then
  eval "$blender_env"
  blender_ready=1
elif [ -n "${CI:-}" ]; then
  finish 1 "Blender could not be prepared under CI (scripts/blender-judge.sh failed): no test ran"
else
  echo "test.sh: Blender not prepared (see above); the Blender check will be skipped" >&2
fi

# Colors when the output is a terminal (cargo sees a pipe); the summary strips them.
if [ -t 1 ]; then export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-always}"; fi
cargo test --workspace --locked --no-fail-fast -- --nocapture 2>&1 | tee "$log"
cargo_status="${PIPESTATUS[0]}"

status="$cargo_status"
note=""
if [ "$cargo_status" -ne 0 ] && ! grep -q '^test result: ' "$log"; then
  note="cargo test failed before any suite ran (exit status $cargo_status; a compile error?): see above"
fi
if [ -n "$peers_ready" ]; then
  bash scripts/test-peer-repair.sh 2>&1 | tee "$repair_log"
  repair_status="${PIPESTATUS[0]}"
  if [ "$repair_status" -ne 0 ] && [ "$status" -eq 0 ]; then status="$repair_status"; fi
fi
# The judges' own tests (against expectations computed without them), as further suites.
if [ -n "$judges_ready" ]; then
  bash scripts/test-gltf-judges.sh 2>&1 | tee -a "$repair_log"
  s="${PIPESTATUS[0]}"
  if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then status="$s"; fi
fi
if [ -n "$blender_ready" ]; then
  bash scripts/test-blender-judge.sh 2>&1 | tee -a "$repair_log"
  s="${PIPESTATUS[0]}"
  if [ "$s" -ne 0 ] && [ "$status" -eq 0 ]; then status="$s"; fi
fi
finish "$status" "$note"
