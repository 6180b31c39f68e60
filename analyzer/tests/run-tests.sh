#!/bin/bash
# Runs every test script in order (analyzer/tests/t*.sh, then
# kernel-glue/tests/t*.sh and qemu-check/tests/t*.sh) and prints the total
# as its last line: "N passed, N failed". Each script prints one
# "ok - ..." or "not ok - ..." line per check.
# usage: run-tests.sh KSRC KOBJ
set -u
here=$(cd "$(dirname "$0")" && pwd)
export KSRC=$1 KOBJ=$2
export ANALYZER=$(cd "$here/.." && pwd)
export ROOT=$(dirname "$ANALYZER")
export WORK=$ANALYZER/build/tests
# the facts cache make scan uses: a second make test reparses nothing that
# has not changed (t41 checks that the cache never changes a report)
export IOCTL_SCAN_CACHE_DIR=${IOCTL_SCAN_CACHE_DIR:-${BUILD:-$ANALYZER/build}/facts-cache}
mkdir -p "$WORK"
passed=0 failed=0
for t in "$here"/t[0-9]*.sh "$ROOT"/kernel-glue/tests/t[0-9]*.sh "$ROOT"/qemu-check/tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	start=$SECONDS
	out=$("$t" 2>&1)
	rc=$?
	p=$(grep -c '^ok ' <<<"$out")
	f=$(grep -c '^not ok ' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		out+=$'\n'"not ok - $name exited with status $rc"
	fi
	# show failures in full, passes in brief
	grep -v '^ok ' <<<"$out" | grep -v '^[0-9]* passed, [0-9]* failed$' | sed "s/^/$name: /"
	echo "$name: $p passed, $f failed ($((SECONDS - start))s)"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
