#!/usr/bin/env bash
# optimize-vs-peers.sh - measures what other Warcraft III model optimizers write, with this
# crate's sampler and checker, side by side on the same originals.
#
#   scripts/optimize-vs-peers.sh PEERS_OUT [ORIGINALS]
#
# PEERS_OUT holds one folder per optimizer (PEERS_OUT/TOOL/NAME.mdx, written from
# ORIGINALS/NAME.mdx) and optionally PEERS_OUT/TOOL.tsv (name, status, input bytes, output
# bytes) saying why a file has no output. ORIGINALS defaults to ../shared/corpus/mdx beside
# the repository. The optimizers themselves are not part of this repository (their code is
# not ours to ship): run them first, into PEERS_OUT.
#
# With OURS=1, `mdlx optimize --json ORIGINALS PEERS_OUT/ours` runs first (when that folder
# is missing or empty; its reports go to PEERS_OUT/ours.jsonl), so this crate's optimizer is
# in the same table. Its outputs whose geometry changed (welded vertices, merged geosets)
# cannot be paired vertex for vertex by --compare: for those the deviation its own report
# measured is used, and counted apart as "self-measured".
#
# For each optimizer it counts, over the originals:
# - failed: no output (the optimizer threw, or its reader refused the original);
# - refused: outputs this crate's reader refuses (`mdlx check --json` reports an error);
# - new errors: outputs with more `check` findings of severity error, for some rule, than
#   their original;
# - over tolerance: outputs whose measured deviation (`mdlx optimize --compare ORIG OUT`,
#   JSON) breaks the default tolerance;
# - unmeasured: outputs --compare cannot pair vertex for vertex with their original (other
#   geoset or vertex counts). A keyframe optimizer should never cause that, so they count
#   as broken; for an optimizer that welds or merges geometry (ours with its geometry
#   pass), read its own report's measured deviation instead;
# - broken: refused, new errors, over tolerance or unmeasured;
# - bytes saved, raw and deflated (zlib level 9, as a map's MPQ stores files), over the
#   files it wrote, and over the files it wrote that are unbroken (read, no new error,
#   within the tolerance).
# A per-file TSV is written to PEERS_OUT/measured-TOOL.tsv; the table goes to stdout.
# A folder TOOL-io beside TOOL (the same tool's reader and writer with no optimizing)
# tells what the optimizer broke from what the round trip alone does.
#
# MDLX names the mdlx binary (default: target/release/mdlx, built when missing). JOBS sets
# how many comparisons run at once (default 2).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: $0 PEERS_OUT [ORIGINALS]" >&2; exit 2; }
peers="$(realpath "$1")"
orig="$(realpath "${2:-$root/../shared/corpus/mdx}")"
mdlx="${MDLX:-}"
if [ -z "$mdlx" ]; then
    mdlx="${CARGO_TARGET_DIR:-$root/target}/release/mdlx"
    [ -x "$mdlx" ] || (cd "$root" && cargo build --release -p mdlx-cli >&2)
fi
mdlx="$(realpath "$mdlx")"

if [ "${OURS:-0}" = 1 ] && [ -z "$(ls -A "$peers/ours" 2>/dev/null)" ]; then
    mkdir -p "$peers/ours"
    "$mdlx" optimize -q --json "$orig" "$peers/ours" >"$peers/ours.jsonl" || true
fi

exec python3 - "$mdlx" "$orig" "$peers" "${JOBS:-2}" <<'PY'
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import zlib

mdlx, orig_dir, peers, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

# The default tolerance (crates/mdlx/src/optimize/mod.rs, Tolerance::default), used only
# when the JSON does not say itself ("exceeds_default") whether the deviation is within it.
TOL = {"position": 1 / 2000, "node_position": 1 / 2000, "node_rotation": 1 / 1000,
       "color": 1 / 512, "alpha": 1 / 512}
COUNTS = ("visibility", "unmatched", "triangles")


def within(dev):
    """Whether a deviation (the JSON of `mdlx optimize --compare`) keeps the tolerance."""
    if "exceeds_default" in dev:  # why it breaks Tolerance::default(), or null
        return not dev["exceeds_default"]
    if dev.get("nodes_differ"):
        return False
    if any(dev.get(k, 0) for k in COUNTS):
        return False
    return all(float(dev.get(k, 0.0)) <= t * (1 + 1e-4) for k, t in TOL.items())


def check_all(folder):
    """name -> ("error", message) or ("ok", {rule: error count}), from one `check --json`."""
    out = subprocess.run([mdlx, "check", "--json", folder], capture_output=True, text=True)
    res = {}
    for line in out.stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        name = os.path.basename(rec.get("file", ""))
        if "error" in rec and "rule" not in rec:
            res[name] = ("error", rec["error"])
            continue
        counts = res.setdefault(name, ("ok", {}))[1]
        if rec.get("severity") == "error":
            counts[rec["rule"]] = counts.get(rec["rule"], 0) + 1
    return res


def compare(name, tool):
    """The deviation of PEERS/TOOL/NAME from ORIG/NAME, or the error that stopped it."""
    p = subprocess.run([mdlx, "optimize", "--compare", os.path.join(orig_dir, name),
                        os.path.join(peers, tool, name)], capture_output=True, text=True)
    try:
        return json.loads(p.stdout), None
    except ValueError:
        err = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        return None, err


def own_reports(tool):
    """name -> deviation, from the optimizer's own JSON reports (PEERS/TOOL.jsonl), if any."""
    path = os.path.join(peers, tool + ".jsonl")
    out = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            rec = json.loads(line)
            if "file" in rec and "deviation" in rec:
                out[os.path.basename(rec["file"])] = rec["deviation"]
    return out


def deflated(path):
    with open(path, "rb") as f:
        return zlib.compress(f.read(), 9).__len__()


names = sorted(n for n in os.listdir(orig_dir) if n.lower().endswith(".mdx"))
tools = sorted(t for t in os.listdir(peers) if os.path.isdir(os.path.join(peers, t)))
orig_check = check_all(orig_dir)
orig_size = {n: (os.path.getsize(os.path.join(orig_dir, n)),
                 deflated(os.path.join(orig_dir, n))) for n in names}
rows = []
for tool in tools:
    status = {}
    tsv = os.path.join(peers, tool + ".tsv")
    if os.path.exists(tsv):
        for line in open(tsv, encoding="utf-8").read().splitlines()[1:]:
            f = line.split("\t")
            status[f[0]] = f[1]
    written = [n for n in names if os.path.exists(os.path.join(peers, tool, n))]
    checks = check_all(os.path.join(peers, tool))
    with cf.ThreadPoolExecutor(jobs) as pool:
        devs = dict(zip(written, pool.map(lambda n: compare(n, tool), written)))
    own = own_reports(tool)
    self_measured = 0
    for n, (dev, err) in list(devs.items()):
        if dev is None and n in own:
            devs[n] = (own[n], None)
            self_measured += 1
    s = {k: 0 for k in ("failed", "refused", "new_errors", "over", "unmeasured", "broken")}
    sums = [0, 0, 0, 0, 0, 0, 0, 0]  # in/out raw, in/out deflated; the same, unbroken
    worst = (0.0, "")
    per_file = ["name\tstatus\tread\tnew_errors\twithin\tposition\tin\tout\tin_z\tout_z\twhy"]
    reasons = {}
    for n in names:
        if n not in devs:
            s["failed"] += 1
            per_file.append(f"{n}\t{status.get(n, 'no output')}\t\t\t\t\t\t\t\t")
            continue
        path = os.path.join(peers, tool, n)
        out_raw, out_z = os.path.getsize(path), deflated(path)
        in_raw, in_z = orig_size[n]
        kind, found = checks.get(n, ("ok", {}))
        read = kind == "ok"
        if not read:
            s["refused"] += 1
        had = orig_check.get(n, ("ok", {}))[1]
        new = read and any(c > had.get(r, 0) for r, c in found.items())
        s["new_errors"] += new
        dev, err = devs[n]
        ok_dev = dev is not None and within(dev)
        if dev is None:
            s["unmeasured"] += 1
        elif not ok_dev:
            s["over"] += 1
            why = str(dev.get("exceeds_default") or "over")
            key = re.sub(r"[-+]?[0-9][0-9.e+-]*", "N", why)[:70]
            reasons[key] = reasons.get(key, 0) + 1
        if dev is not None and float(dev.get("position", 0.0)) > worst[0]:
            worst = (float(dev["position"]), n)
        broken = not read or new or not ok_dev
        s["broken"] += broken
        sums[0:4] = [a + b for a, b in zip(sums[0:4], (in_raw, out_raw, in_z, out_z))]
        if not broken:
            sums[4:8] = [a + b for a, b in zip(sums[4:8], (in_raw, out_raw, in_z, out_z))]
        pos = "" if dev is None else dev.get("position", "")
        why = "" if dev is None else str(dev.get("exceeds_default") or "")
        per_file.append(f"{n}\t{'ok' if dev is not None else err}\t{read}\t{new}\t{ok_dev}"
                        f"\t{pos}\t{in_raw}\t{out_raw}\t{in_z}\t{out_z}\t{why}")
    with open(os.path.join(peers, f"measured-{tool}.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(per_file) + "\n")
    rows.append((tool, len(written), s, sums, worst, reasons, self_measured))


def pct(a, b):
    return f"{a - b:>10} ({100 * (a - b) / a:5.2f}%)" if a else "0"


print(f"originals: {len(names)} in {orig_dir}")
print("tool  written failed refused new-errors over-tol unmeasured broken  "
      "saved raw            saved deflated       | unbroken: saved raw   saved deflated")
for tool, w, s, x, worst, _, _ in rows:
    print(f"{tool:5} {w:7} {s['failed']:6} {s['refused']:7} {s['new_errors']:10} "
          f"{s['over']:8} {s['unmeasured']:10} {s['broken']:6}  {pct(x[0], x[1])} "
          f"{pct(x[2], x[3])} | {pct(x[4], x[5])} {pct(x[6], x[7])}")
for tool, w, s, x, worst, reasons, own in rows:
    print(f"{tool}: worst posed-vertex deviation {worst[0]:.3g} of the model size ({worst[1]})")
    if own:
        print(f"  {own} outputs self-measured (geometry changed; the optimizer's own report)")
    for why, count in sorted(reasons.items(), key=lambda r: -r[1])[:8]:
        print(f"  over the tolerance, {count:4} files: {why}")
PY
