#!/usr/bin/env python3
"""Judges SARIF files with two independent validators, installed by scripts/sarif-judge.sh:

- the SARIF 2.1.0 JSON schema (the copy that ships in Microsoft's SARIF Multitool package,
  draft 2020-12), checked with the Python `jsonschema` package, formats included;
- Microsoft's SARIF Multitool `validate`, which applies the specification's own rules
  (SARIF1xxx errors, SARIF2xxx warnings) on top of the schema.

usage: validate.py JUDGE_DIR FILE.sarif
prints one JSON object: {"schema_errors": N, "schema_first": [...],
                         "multitool": {"RULE level": count, ...}}
"""
import json
import os
import subprocess
import sys
import tempfile

judge, path = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(judge, "py"))
import jsonschema  # noqa: E402

tool = os.path.join(judge, "node_modules", "@microsoft", "sarif-multitool-linux")
with open(os.path.join(tool, "sarif-2.1.0.json"), encoding="utf-8") as f:
    schema = json.load(f)
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
cls = jsonschema.validators.validator_for(schema)
v = cls(schema, format_checker=cls.FORMAT_CHECKER)
errors = list(v.iter_errors(doc))
first = ["/".join(map(str, e.absolute_path)) + ": " + e.message[:200] for e in errors[:5]]

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.sarif")
    subprocess.run(
        [os.path.join(tool, "Sarif.Multitool"), "validate", path,
         "--json-schema", os.path.join(tool, "sarif-2.1.0.json"), "-o", out, "-q"],
        check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        # A self-contained .NET program: without ICU on the machine it must be told so.
        env=dict(os.environ, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT="1"),
    )
    # Its exit status is 1 when it found anything; no output file means it failed.
    if not os.path.exists(out):
        sys.exit("the SARIF Multitool wrote no verdict for " + path)
    with open(out, encoding="utf-8") as f:
        log = json.load(f)
counts = {}
for r in log["runs"][0].get("results", []):
    key = "%s %s" % (r["ruleId"], r.get("level", "warning"))
    counts[key] = counts.get(key, 0) + 1
print(json.dumps({"schema_errors": len(errors), "schema_first": first, "multitool": counts}))
