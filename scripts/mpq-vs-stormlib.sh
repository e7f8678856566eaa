#!/usr/bin/env bash
# Extraction speed beside StormLib, in one run: every file of every archive in
# ../shared/archives (or the archives given) extracted to a fresh folder by `smpq -x` and by
# `mdlx extract`, best of ROUNDS (default 5) for each; prints MB/s of file data written and
# the ratio. Needs a release build (target/release/mdlx) and smpq.
#   bash scripts/mpq-vs-stormlib.sh [ARCHIVE...]
set -uo pipefail
cd "$(dirname "$0")/.."
mdlx="${MDLX:-target/release/mdlx}"
smpq="${MDLX_SMPQ:-$(command -v smpq)}"
rounds="${ROUNDS:-5}"
[ -x "$mdlx" ] || { echo "no $mdlx: cargo build --release -p mdlx-cli" >&2; exit 1; }
[ -n "$smpq" ] || { echo "no smpq (bash scripts/smpq-judge.sh)" >&2; exit 1; }
archives=("$@")
[ ${#archives[@]} -eq 0 ] && archives=(../shared/archives/*.w3[mx] ../shared/archives/*.mpq)
# In memory where the machine has it (/dev/shm): the disk would measure itself.
scratch="$(mktemp -d -p "${BENCH_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)}")"
trap 'rm -rf "$scratch"' EXIT
now() { date +%s.%N; }
# best TOOL: the fastest of $rounds extractions of every archive, in seconds.
best() {
  local tool="$1" best="" t0 t1 t
  for _ in $(seq "$rounds"); do
    rm -rf "$scratch/out"; mkdir -p "$scratch/out"
    t0=$(now)
    for a in "${archives[@]}"; do
      d="$scratch/out/$(basename "$a")"; mkdir -p "$d"
      if [ "$tool" = smpq ]; then (cd "$d" && "$smpq" -x "$OLDPWD/$a" >/dev/null 2>&1)
      else "$mdlx" extract "$a" "$d" -q >/dev/null 2>&1; fi
    done
    t1=$(now)
    t=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  bytes=$(du -sb "$scratch/out" | cut -f1)
  echo "$best $bytes"
}
read -r ts bs <<<"$(best smpq)"
read -r tm bm <<<"$(best mdlx)"
mbs() { echo "scale=1; $2 / $1 / 1000000" | bc -l; }
echo "archives: ${#archives[@]}, best of $rounds"
echo "StormLib (smpq -x): $(printf %.3f "$ts") s, $bs bytes written, $(mbs "$ts" "$bs") MB/s"
echo "mdlx extract:       $(printf %.3f "$tm") s, $bm bytes written, $(mbs "$tm" "$bm") MB/s"
echo "ratio (StormLib time / mdlx time): $(echo "scale=2; $ts / $tm" | bc -l)"
