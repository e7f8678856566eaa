#!/usr/bin/env bash
# Extraction and listing speed beside StormLib, in one run: for each archive of
# ../shared/archives (or the archives given), `smpq -x` and `mdlx extract` each extract every
# file into a fresh folder, and `smpq -l` and `mdlx ls` list it; each timed as the best of
# ROUNDS (default 5) runs, the two tools taking turns run by run. Prints a table (each
# archive, then the total) with the ratios StormLib time / mdlx time (above 1: mdlx is
# faster). Needs a release build (target/release/mdlx, or MDLX) and StormLib's smpq
# (Debian package smpq; scripts/smpq-judge.sh installs it).
#   bash scripts/mpq-vs-stormlib.sh [ARCHIVE...]
set -uo pipefail
cd "$(dirname "$0")/.."
mdlx="${MDLX:-target/release/mdlx}"
rounds="${ROUNDS:-5}"
[ -x "$mdlx" ] || { echo "no $mdlx: cargo build --release -p mdlx-cli" >&2; exit 1; }
if [ -z "${MDLX_SMPQ:-}" ]; then
  eval "$(bash scripts/smpq-judge.sh)" || { echo "no smpq" >&2; exit 1; }
fi
archives=("$@")
[ ${#archives[@]} -eq 0 ] && archives=(../shared/archives/*.w3[mx] ../shared/archives/*.mpq)
# In memory where the machine has it (/dev/shm): the disk would measure itself.
scratch="$(mktemp -d -p "${BENCH_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)}")"
trap 'rm -rf "$scratch"' EXIT
echo "mdlx: $("$mdlx" --version), StormLib: $("$MDLX_SMPQ" --version 2>&1 | head -1)"
echo "$(nproc) cores; best of $rounds runs each; output folders under $scratch"
python3 - "$mdlx" "$MDLX_SMPQ" "$rounds" "$scratch" "${archives[@]}" <<'EOF'
import os, shutil, subprocess, sys, time
mdlx, smpq, rounds, scratch = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
archives = [os.path.abspath(a) for a in sys.argv[5:]]
quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def timed(argv, cwd=None):
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=cwd, **quiet)
    return time.perf_counter() - t0

def extract(tool, a):
    out = os.path.join(scratch, "out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if tool == "smpq":
        t = timed([smpq, "-x", a], cwd=out)
    else:
        t = timed([mdlx, "extract", a, out, "-q"])
    files = sum(len(f) for _, _, f in os.walk(out))
    shutil.rmtree(out, ignore_errors=True)
    return t, files

def listing(tool, a):
    return timed([smpq, "-l", a] if tool == "smpq" else [mdlx, "ls", a])

rows, total = [], [0.0] * 4
for a in archives:
    best = {}
    for _ in range(rounds):
        for tool in ("smpq", "mdlx"):
            t, files = extract(tool, a)
            best[("x", tool)] = min(best.get(("x", tool), t), t)
            best[("n", tool)] = files
            t = listing(tool, a)
            best[("l", tool)] = min(best.get(("l", tool), t), t)
    times = [best[("x", "smpq")], best[("x", "mdlx")], best[("l", "smpq")], best[("l", "mdlx")]]
    total = [s + t for s, t in zip(total, times)]
    name = os.path.basename(a)
    rows.append((name[:48], best[("n", "smpq")], best[("n", "mdlx")], times))

ms = lambda t: f"{t * 1000:8.1f}"
print(f"| {'archive':48} | files smpq / mdlx | smpq -x ms | mdlx extract ms | ratio | smpq -l ms | mdlx ls ms | ratio |")
print("|" + "---|" * 8)
for name, ns, nm, t in rows + [("total", "", "", total)]:
    files = f"{ns} / {nm}" if ns != "" else ""
    print(f"| {name:48} | {files:17} | {ms(t[0])} | {ms(t[1])} | {t[0] / t[1]:5.2f} | {ms(t[2])} | {ms(t[3])} | {t[2] / t[3]:5.2f} |")
EOF
