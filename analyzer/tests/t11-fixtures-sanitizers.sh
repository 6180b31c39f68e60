#!/bin/bash
# The same fixtures, with ioctl-scan built under AddressSanitizer (with
# LeakSanitizer) and UndefinedBehaviorSanitizer; any report fails the run.
set -u
make -s -C "$ANALYZER" ioctl-scan-asan build/tests/check_fixtures || exit 1
mkdir -p "$WORK/fixtures-asan"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
"$ANALYZER/build/tests/check_fixtures" "$ANALYZER/ioctl-scan-asan" \
	"$ANALYZER/tests/fixtures/tree" "$WORK/fixtures-asan"
