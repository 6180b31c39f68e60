#!/bin/bash
# The end-to-end check: the patched kernel, booted under QEMU, enforces the
# generated table (qemu-check/run.sh; the guest prints one line per check).
# Builds both kernels (with and without the option) on the first run; later
# runs reuse the build directories.
set -u
: "${KVER:=6.1}" "${BUILD:=$ROOT/build}"
rel=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$KSRC/Makefile" | paste -sd.)
export KVER QBUILD=$BUILD/qemu-$KVER REPORT=$ROOT/generated/linux-$rel/report.json
export SERIES=$ROOT/kernel-glue/linux-$KVER/series
"$ROOT/qemu-check/run.sh" semantics plain
