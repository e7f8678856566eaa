#!/usr/bin/env bash
# python-wheel.sh - builds the Python package of the bindings (crates/mdlx-py) as an abi3
# wheel with maturin, installs it in a venv, and prints where:
#
#   eval "$(scripts/python-wheel.sh)"
#       export MDLX_WHEEL=/tmp/mdlx-python/wheels/mdlx-0.1.0-cp310-abi3-linux_x86_64.whl
#       export MDLX_PYTHON=/tmp/mdlx-python/venv/bin/python
#
# 1. A venv under $MDLX_PY_DIR (default /tmp/mdlx-python) with maturin and pytest from PyPI
#    (the versions below), unless one with those versions is there already.
# 2. maturin builds the wheel in the workspace's target folder with Cargo's dev profile
#    (MDLX_PY_PROFILE to change it): the dependencies are built with the settings
#    `cargo test` builds them with (opt-level 2, no debug info), so a CI run shares them
#    with the test build instead of compiling them again in release mode. The wheel is
#    what `pip install` takes (abi3: CPython 3.10 and later); a release build for PyPI is
#    `maturin build --release` in crates/mdlx-py.
# 3. Installs the wheel in the venv (replacing an earlier one).
# Everything but the two lines above goes to stderr; exit status 1 when a step failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${MDLX_PY_DIR:-/tmp/mdlx-python}"
venv="$base/venv"
profile="${MDLX_PY_PROFILE:-dev}"
maturin_version="1.16.0"
pytest_version="9.2.0"

have() {
    "$venv/bin/python" -c "import pytest, sys; sys.exit(pytest.__version__ != '$pytest_version')" 2>/dev/null &&
        [[ "$("$venv/bin/maturin" --version 2>/dev/null)" == "maturin $maturin_version" ]]
}
if ! have; then
    echo "python-wheel: installing maturin $maturin_version and pytest $pytest_version into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q --disable-pip-version-check \
        "maturin==$maturin_version" "pytest==$pytest_version" >&2
fi

out="$base/wheels"
rm -rf "$out"
started=$(date +%s)
echo "python-wheel: maturin build --profile $profile (crates/mdlx-py)" >&2
"$venv/bin/maturin" build --manifest-path "$root/crates/mdlx-py/Cargo.toml" \
    --profile "$profile" --locked --interpreter "$venv/bin/python" --out "$out" >&2
wheel="$(ls "$out"/mdlx-*.whl)"
echo "python-wheel: built $wheel in $(($(date +%s) - started)) s" >&2
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel" >&2
echo "export MDLX_WHEEL=$wheel"
echo "export MDLX_PYTHON=$venv/bin/python"
