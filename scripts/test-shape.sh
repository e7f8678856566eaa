#!/usr/bin/env bash
# test-shape.sh - the shape gate (scripts/shape.py --gate, issue 38) on the tree as it is,
# and on copies of it with one breach planted each: a function over 150 lines, a cycle
# between two top-level modules, a file over 600 lines of code, an exact copy of six lines.
# The gate must pass on the tree and fail on each copy, naming the breach. Run by
# scripts/test.sh; prints libtest-style lines that it counts.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mdlx-shape.XXXXXX")"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# case NAME EXPECT(pass|fail) PATTERN PLANT: copies crates/*/src and scripts/shape-allow.txt,
# runs PLANT in the copy, then the gate; PATTERN must be in a FAIL line when EXPECT is fail.
case_() {
  local name="$1" expect="$2" pattern="$3" plant="$4" dir="$work/$1" out status ok=1
  mkdir -p "$dir/scripts"
  for c in "$root"/crates/*/; do
    [ -d "$c/src" ] && mkdir -p "$dir/crates/$(basename "$c")" && cp -a "$c/src" "$dir/crates/$(basename "$c")/"
  done
  cp "$root/scripts/shape-allow.txt" "$dir/scripts/"
  (cd "$dir" && eval "$plant")
  out="$(python3 "$root/scripts/shape.py" --gate "$dir" 2>&1)"
  status=$?
  if [ "$expect" = pass ]; then
    [ "$status" -eq 0 ] || ok=0
  else
    [ "$status" -ne 0 ] && grep -q "shape: FAIL .*$pattern" <<<"$out" || ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    echo "test shape::$name ... ok"
    passed=$((passed + 1))
  else
    echo "test shape::$name ... FAILED"
    echo "$out" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}

echo
echo "running scripts/test-shape.sh (the shape gate on the tree and on planted breaches)"
# The tree itself, with the gate's table in the log.
python3 "$root/scripts/shape.py" --gate "$root"
if [ $? -eq 0 ]; then echo "test shape::the_tree_passes ... ok"; passed=$((passed + 1));
else echo "test shape::the_tree_passes ... FAILED"; failed=$((failed + 1)); fi

long_fn='python3 -c "
body = \"\".join(f\"    let x{i} = {i};\\n\" for i in range(160))
open(\"crates/mdlx/src/planted.rs\", \"w\").write(\"pub(crate) fn planted() {\\n\" + body + \"}\\n\")
"; echo "mod planted;" >> crates/mdlx/src/lib.rs'
case_ a_long_function_fails fail "function over 150 lines: planted" "$long_fn"

cycle='echo "pub(crate) fn back() { crate::mdx::planted_cycle(); }" >> crates/mdlx/src/model/mod.rs
echo "pub(crate) fn planted_cycle() { crate::model::back(); }" >> crates/mdlx/src/mdx/mod.rs'
case_ a_cycle_fails fail "cycle between top-level modules of crates/mdlx: {.*mdx.*model" "$cycle"

big_file='python3 -c "
body = \"\".join(f\"pub(crate) const C{i}: u32 = {i};\\n\" for i in range(620))
open(\"crates/mdlx/src/planted.rs\", \"w\").write(body)
"; echo "mod planted;" >> crates/mdlx/src/lib.rs'
case_ a_big_file_fails fail "file over 600 lines of code: crates/mdlx/src/planted.rs" "$big_file"

copy='python3 -c "
f = \"\".join(f\"    let v{i} = w.len() * {i} + 3;\\n\" for i in range(6))
for n in (\"a\", \"b\"):
    open(f\"crates/mdlx/src/planted_{n}.rs\", \"w\").write(f\"pub(crate) fn {n}(w: &[u8]) {{\\n\" + f + \"}}\\n\")
"; printf "mod planted_a;\nmod planted_b;\n" >> crates/mdlx/src/lib.rs'
case_ an_exact_copy_fails fail "exact copy of 6 lines: crates/mdlx/src/planted_a.rs" "$copy"

case_ a_copy_in_test_code_passes pass "" "python3 -c \"
f = ''.join(f'    let v{i} = w.len() * {i} + 3;\\n' for i in range(6))
open('crates/mdlx/src/planted_tests.rs', 'w').write('fn a(w: &[u8]) {\\n' + f + '}\\nfn b(w: &[u8]) {\\n' + f + '}\\n')
\""

if [ "$failed" -eq 0 ]; then
  echo "test result: ok. $passed passed; 0 failed; 0 ignored; 0 measured; 0 filtered out"
else
  echo "test result: FAILED. $passed passed; $failed failed; 0 ignored; 0 measured; 0 filtered out"
  exit 1
fi
