#!/usr/bin/env bash
# The test command (README, .ci/run): prepares the peer MDL check when it can, then runs
# every test of the workspace with the corpus summaries shown.
#
# The peer check (crates/mdlx/tests/peer_mdl.rs) needs the MDL that mdx-m3-viewer and
# war3-model write from the corpus; scripts/peer-mdl.sh installs them (node, npm, cargo,
# about a minute the first time). Without node the check is skipped with a message, except
# under CI, where it must run.
set -euo pipefail
cd "$(dirname "$0")/.."
if peer_env="$(scripts/peer-mdl.sh)"; then
  eval "$peer_env"
elif [ -n "${CI:-}" ]; then
  echo "test.sh: the peer MDL check could not be prepared (see above)" >&2
  exit 1
else
  echo "test.sh: peer MDL check not prepared; it will be skipped" >&2
fi
cargo test --workspace --locked -- --nocapture
