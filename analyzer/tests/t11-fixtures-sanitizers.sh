#!/bin/bash
# The same fixtures, with ioctl-scan built under AddressSanitizer (with
# LeakSanitizer) and UndefinedBehaviorSanitizer; any report fails the run.
# Twice, with a facts cache of its own that starts empty: the first pass
# parses every fixture and writes its entry, the second reads every one
# back (facts_serial.c and facts_cache.c under the sanitizers too).
set -u -o pipefail
make -s -C "$ANALYZER" ioctl-scan-asan build/tests/check_fixtures || exit 1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99
export IOCTL_SCAN_CACHE_DIR=$WORK/fixtures-asan-cache
rm -rf "$IOCTL_SCAN_CACHE_DIR" "$WORK/fixtures-asan" "$WORK/fixtures-asan-warm"
mkdir -p "$WORK/fixtures-asan" "$WORK/fixtures-asan-warm"
"$ANALYZER/build/tests/check_fixtures" "$ANALYZER/ioctl-scan-asan" \
	"$ANALYZER/tests/fixtures/tree" "$WORK/fixtures-asan" | sed 's/^\(not \)\{0,1\}ok - /&cold cache: /' ||
	echo "not ok - cold cache: check_fixtures exited with status $?"
# an entry the warm pass wrote again would have a new inode
inodes() { find "$IOCTL_SCAN_CACHE_DIR" -type f -printf '%i %p\n' 2>/dev/null | sort; }
before=$(inodes)
"$ANALYZER/build/tests/check_fixtures" "$ANALYZER/ioctl-scan-asan" \
	"$ANALYZER/tests/fixtures/tree" "$WORK/fixtures-asan-warm" | sed 's/^\(not \)\{0,1\}ok - /&warm cache: /' ||
	echo "not ok - warm cache: check_fixtures exited with status $?"
entries=$(find "$IOCTL_SCAN_CACHE_DIR" -type f ! -name '*.tmp.*' 2>/dev/null | wc -l)
if [ "$entries" -gt 0 ] && [ "$(inodes)" = "$before" ]; then
	echo "ok - the cold pass wrote $entries cache entries and the warm pass read them, writing none"
else
	echo "not ok - the cache after the sanitized passes: $entries entries, rewritten: $(diff <(echo "$before") <(inodes) | grep -c '^>')"
fi
