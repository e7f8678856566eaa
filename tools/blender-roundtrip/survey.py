# survey.py - the experiments behind README.md: sends .glb files (exported by
# `mdlx convert X.mdx X.glb`) through each Blender in a few variants and writes what came
# back and what changed.
#
#   python3 survey.py OUTDIR A.glb [B.glb ...]
#
# Needs MDLX_BLENDER, MDLX_BPY45, MDLX_BPY50 (scripts/blender-versions.sh). For every file
# and Blender: OUTDIR/<name>.<blender>.<variant>.glb, the round trip's JSON line, and
# OUTDIR/<name>.<blender>.<variant>.json (compare_glb.py's facts, with key times). The
# variants: default (roundtrip.py's options), fps1000 (scene at 1000 fps before the
# import), nosample (export_force_sampling off), fps1000-nosample, and probe (the file
# marked by probe.py; OUTDIR/<name>.<blender>.probe.txt says where the probes went).
import json
import os
import subprocess
import sys

import compare_glb

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = {
    "default": {},
    "fps1000": {"fps": 1000},
    "nosample": {"export_options": {"export_force_sampling": False}},
    "fps1000-nosample": {"fps": 1000, "export_options": {"export_force_sampling": False}},
}


def blenders():
    out = {}
    if os.environ.get("MDLX_BLENDER"):
        out["b34"] = [os.environ["MDLX_BLENDER"], "-b", "--factory-startup", "--python",
                      os.path.join(HERE, "roundtrip.py"), "--"]
    for key, var in (("b45", "MDLX_BPY45"), ("b50", "MDLX_BPY50")):
        if os.environ.get(var):
            out[key] = [os.environ[var], os.path.join(HERE, "roundtrip.py")]
    return out


def main(outdir, files):
    os.makedirs(outdir, exist_ok=True)
    jobs_by = {}
    for f in files:
        name = os.path.splitext(os.path.basename(f))[0]
        marked = os.path.join(outdir, name + ".marked.glb")
        subprocess.run([sys.executable, os.path.join(HERE, "probe.py"), "mark", f, marked],
                       check=True, stdout=subprocess.DEVNULL)
        for b in blenders():
            for variant, extra in VARIANTS.items():
                job = {"input": os.path.abspath(f), "inspect": variant == "default",
                       "output": os.path.join(outdir, "%s.%s.%s.glb" % (name, b, variant))}
                job.update(extra)
                jobs_by.setdefault(b, []).append((name, variant, job))
            job = {"input": marked, "output": os.path.join(outdir, "%s.%s.probe.glb" % (name, b))}
            jobs_by[b].append((name, "probe", job))
    for b, cmd in blenders().items():
        req = os.path.join(outdir, "request.%s.json" % b)
        res = os.path.join(outdir, "result.%s.jsonl" % b)
        with open(req, "w") as fh:
            json.dump({"jobs": [j for _, _, j in jobs_by[b]]}, fh)
        subprocess.run(cmd + [req, res], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = [json.loads(x) for x in open(res)]
        for (name, variant, job), rec in zip(jobs_by[b], lines):
            base = os.path.join(outdir, "%s.%s.%s" % (name, b, variant))
            with open(base + ".run.json", "w") as fh:
                json.dump(rec, fh, indent=1)
            if rec.get("error"):
                print(b, name, variant, "ERROR", rec["error"])
                continue
            if variant == "probe":
                r = subprocess.run([sys.executable, os.path.join(HERE, "probe.py"), "read",
                                    job["input"], job["output"]], capture_output=True, text=True)
                open(base + ".txt", "w").write(r.stdout + r.stderr)
            else:
                facts = compare_glb.compare(job["input"], job["output"], keys=True)
                with open(base + ".json", "w") as fh:
                    json.dump(facts, fh, indent=1)
            print(b, name, variant, "ok", rec.get("seconds"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
