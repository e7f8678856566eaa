#!/usr/bin/env bash
# Prepares StormLib's command-line front end `smpq` (Debian package smpq), the independent
# judge of the MPQ tests (mpq_read.rs, mpq_write.rs, the CLI's archive tests), and prints
#   export MDLX_SMPQ=/usr/bin/smpq
# for scripts/test.sh to evaluate. Installs the package with apt-get when it is missing
# (needs root and the Debian archive; runs `apt-get update` only when the first install
# fails).
set -euo pipefail
die() { echo "smpq-judge: $*" >&2; exit 1; }
smpq="$(command -v smpq || true)"
if [[ -z "$smpq" ]]; then
    command -v apt-get >/dev/null || die "no smpq and no apt-get to install it with (Debian: smpq)"
    [[ "$(id -u)" == 0 ]] || die "installing smpq needs root (apt-get); install it by hand"
    echo "smpq-judge: installing smpq with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends smpq >&2; then
        echo "smpq-judge: install failed; running apt-get update and trying again" >&2
        apt-get update >&2 || die "apt-get update failed"
        apt-get install -y --no-install-recommends smpq >&2 || die "apt-get install smpq failed"
    fi
    smpq="$(command -v smpq || true)"
    [[ -n "$smpq" ]] || die "apt-get installed smpq but there is no smpq on PATH"
fi
"$smpq" --version >/dev/null 2>&1 || die "$smpq does not run"
echo "export MDLX_SMPQ=$smpq"
