#!/usr/bin/env bash
# test-publish.sh - `cargo publish --dry-run` of every crate of the workspace (issue 38):
# each packs (only what its `include` names), and builds from its package as crates.io
# would build it, against the others' packages. Run by scripts/test.sh; prints one
# libtest-style line a crate and a `test result:` line that it counts. A warning of cargo's
# (a target left out of a package, a manifest key it ignores) fails the crate too.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo
echo "running scripts/test-publish.sh (cargo publish --workspace --dry-run)"
# --allow-dirty: the preparation of the other suites may leave files in the checkout; what
# is packed is what each `include` names, dirty or not.
# Cargo unpacks the packages of its temporary registry under CARGO_HOME and reuses what it
# unpacked on an earlier run of the same version: a second dry run would build the CLI
# against the library as it was then. Our own crates' unpacked copies go first.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for c in $(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print(" ".join(p["name"] + "-" + p["version"] for p in json.load(sys.stdin)["packages"]))'); do
  rm -rf "$cargo_home"/registry/src/-*/"$c"
done
# The verify builds take no profile of the workspace's (a package is its own workspace):
# without debug info, as the workspace builds, they stay small on a CI machine's disk.
CARGO_PROFILE_DEV_DEBUG=false CARGO_PROFILE_DEV_STRIP=debuginfo \
  cargo publish --workspace --dry-run --locked --allow-dirty >"$log" 2>&1
status=$?
crates="$(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json,sys; print("\n".join(p["name"] for p in json.load(sys.stdin)["packages"]))')"
passed=0 failed=0
for c in $crates; do
  # A crate passes when cargo reached its upload (the dry run stops there) and said no
  # warning of its own while packing or verifying it.
  warnings="$(awk -v c="$c" '
    /^ *(Packaging|Verifying|Uploading) / { cur = $2 }
    /^warning: / && $0 !~ /aborting upload due to dry run/ && cur == c { print }' "$log")"
  if [ "$status" -eq 0 ] && grep -q "Uploading $c v" "$log" && [ -z "$warnings" ]; then
    echo "test publish::$c ... ok"
    passed=$((passed + 1))
  else
    echo "test publish::$c ... FAILED"
    failed=$((failed + 1))
  fi
done
if [ "$failed" -eq 0 ]; then
  echo "test result: ok. $passed passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"
else
  echo "--- cargo publish --workspace --dry-run said:"
  grep -v '^ *\(Compiling\|Downloaded\|Downloading\)' "$log"
  echo "test result: FAILED. $passed passed; $failed failed; 0 ignored; 0 measured; 0 filtered out"
  exit 1
fi
