#!/usr/bin/env bash
# blender-roundtrip.sh - corpus models through Blender and back
# (crates/mdlx/tests/blender_roundtrip.rs): prepares the Blenders
# (scripts/blender-versions.sh), then runs the test with the selection asked for and
# prints its tables.
#
#   scripts/blender-roundtrip.sh [ci|quarter|all]     (default ci)
#
# ci: a handful of files holding every node kind, versions 800/1000/1100, MDX and MDL
# (a minute or two); quarter: every 4th corpus MDX and MDL plus every file holding a node
# kind or version those lack (tens of minutes); all: the whole corpus (hours).
# MDLX_ROUNDTRIP_BLENDERS picks the Blenders (default `3.4,4.5`; `5.0` too).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode="${1:-ci}"
case "$mode" in ci|quarter|all) ;; *) echo "usage: $0 [ci|quarter|all]" >&2; exit 2 ;; esac
eval "$(scripts/blender-versions.sh)"
MDLX_ROUNDTRIP="$mode" cargo test -p war3-mdlx --locked --test blender_roundtrip -- --nocapture
