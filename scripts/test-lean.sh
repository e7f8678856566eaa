#!/usr/bin/env bash
# test-lean.sh - the library built with no features (issue 38: MDX, MDL, Milkshape, the WoW
# alpha family, OBJ, textures, check, animation; no glTF, renderer, optimizer or archives)
# compiles and passes its own unit tests, among them that glTF is refused naming the
# feature. Run by scripts/test.sh; libtest prints the lines it counts.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo
echo "running scripts/test-lean.sh (cargo test -p war3-mdlx --lib --no-default-features)"
cargo test -p war3-mdlx --lib --no-default-features --locked 2>&1 | grep -v '^test .* ok$'
exit "${PIPESTATUS[0]}"
