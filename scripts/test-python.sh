#!/usr/bin/env bash
# test-python.sh - runs the tests of the Python bindings (crates/mdlx-py/tests, pytest) on
# the wheel scripts/python-wheel.sh builds and installs, and prints their results as
# libtest does, so that scripts/test.sh counts them as one more suite:
#
#   test test_convert.py::test_to_version_and_back ... ok
#   test result: ok. 31 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out
#
#   scripts/test-python.sh            builds the wheel first unless MDLX_PYTHON is set
#
# MDLX_PYTHON: the Python the wheel is installed in (python-wheel.sh prints it). The
# tests' own output (the corpus summaries) is shown as they run. Exit status 1 when a test
# failed or none ran.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail_setup() {
    echo "test $1 ... FAILED"
    echo "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
    exit 1
}
if [[ -z "${MDLX_PYTHON:-}" ]]; then
    assign="$("$root/scripts/python-wheel.sh")" || fail_setup "python-wheel.sh builds and installs the wheel"
    eval "$assign"
fi
"$MDLX_PYTHON" -c "import mdlx, pytest" || fail_setup "the wheel and pytest import in $MDLX_PYTHON"

xml="$(mktemp)"
trap 'rm -f "$xml"' EXIT
started=$(date +%s)
(cd "$root/crates/mdlx-py/tests" &&
    "$MDLX_PYTHON" -m pytest -s -p no:cacheprovider -o console_output_style=classic \
        --junitxml "$xml" .)
status=$?
echo "test-python.sh: pytest exit status $status after $(($(date +%s) - started)) s"
"$MDLX_PYTHON" - "$xml" "$status" <<'PY'
import sys
import xml.etree.ElementTree as ET

path, status = sys.argv[1], int(sys.argv[2])
passed = failed = ignored = 0
try:
    cases = ET.parse(path).getroot().iter("testcase")
except (ET.ParseError, OSError):
    cases = []
for case in cases:
    name = f"{case.get('classname', '').rsplit('.', 1)[-1]}.py::{case.get('name')}"
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
        print(f"test {name} ... FAILED")
    elif case.find("skipped") is not None:
        ignored += 1
        print(f"test {name} ... ignored")
    else:
        passed += 1
        print(f"test {name} ... ok")
if status not in (0, 1) and failed == 0:
    # pytest itself failed (no test collected: 5; an internal or usage error: 2 to 4).
    failed = 1
    print(f"test pytest runs the suite (exit status {status}) ... FAILED")
word = "ok" if failed == 0 and passed > 0 else "FAILED"
print(f"test result: {word}. {passed} passed; {failed} failed; {ignored} ignored; 0 measured; 0 filtered out")
sys.exit(0 if word == "ok" else 1)
PY
