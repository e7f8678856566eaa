#!/usr/bin/env bash
# sarif-judge.sh - installs the judges of the SARIF that `mdlx check --format sarif`
# writes: Microsoft's SARIF Multitool 5.7.0 (npm `@microsoft/sarif-multitool-linux`, which
# also carries the SARIF 2.1.0 JSON schema) and the Python `jsonschema` package, for
# tools/sarif-judge/validate.py.
#
#   eval "$(scripts/sarif-judge.sh)"     prints `export MDLX_SARIF_JUDGE=/tmp/mdlx-sarif-judge`
#
# Checks an existing install in $SARIF_JUDGE_DIR (default /tmp/mdlx-sarif-judge) by judging
# two tiny SARIF files (one valid, one with a bad level); when that fails, installs afresh
# in a temporary folder beside it, checks that, and only then moves it into place.
# Everything but the variable assignment goes to stderr; exit status 1 when no working
# install can be made (it needs npm, pip and their registries).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${SARIF_JUDGE_DIR:-/tmp/mdlx-sarif-judge}"
say() { printf 'sarif-judge: %s\n' "$*" >&2; }

check() {
  local d="$1" tmp good bad
  tmp="$(mktemp -d)"
  printf '%s' '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"ruleId":"r","level":"note","message":{"text":"m"}}]}]}' >"$tmp/good.sarif"
  printf '%s' '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}},"results":[{"ruleId":"r","level":"bogus","message":{"text":"m"}}]}]}' >"$tmp/bad.sarif"
  good="$(python3 "$root/tools/sarif-judge/validate.py" "$d" "$tmp/good.sarif" 2>/dev/null)" || { rm -rf "$tmp"; return 1; }
  bad="$(python3 "$root/tools/sarif-judge/validate.py" "$d" "$tmp/bad.sarif" 2>/dev/null)" || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
  [[ "$good" == *'"schema_errors": 0'* && "$bad" == *'"schema_errors": 1'* ]]
}

if [ -d "$dir" ] && check "$dir"; then
  echo "export MDLX_SARIF_JUDGE=$dir"
  exit 0
fi
command -v npm >/dev/null || { say "error: npm is needed"; exit 1; }
command -v python3 >/dev/null || { say "error: python3 is needed"; exit 1; }
new="$(mktemp -d "${dir}.new.XXXXXX")"
trap 'rm -rf "$new"' EXIT
say "installing into $dir (npm @microsoft/sarif-multitool-linux@5.7.0, pip jsonschema==4.26.0)"
(cd "$new" && npm install --no-save --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool-linux@5.7.0 >&2)
chmod +x "$new/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
python3 -m pip install --quiet --disable-pip-version-check --target "$new/py" jsonschema==4.26.0 >&2
check "$new" || { say "error: the fresh install does not judge the test files right"; exit 1; }
rm -rf "$dir"
mv "$new" "$dir"
trap - EXIT
echo "export MDLX_SARIF_JUDGE=$dir"
