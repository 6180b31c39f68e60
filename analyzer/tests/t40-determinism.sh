#!/bin/bash
# The same tree and options give a byte-identical report, whatever -j.
# (--no-cache: the files are parsed in a different order each time, which
# is what this checks; t41 checks that the cache changes nothing.)
set -u
w=$WORK/determinism
rm -rf "$w" && mkdir -p "$w"
paths="drivers/char/random.c drivers/rtc drivers/block/loop.c drivers/input/evdev.c"
for j in 1 2; do
	"$ANALYZER/ioctl-scan" -q -j$j --no-cache --build-dir "$KOBJ" -o "$w/j$j.json" "$KSRC" $paths
	rc=$?
	[ $rc -le 1 ] && [ -s "$w/j$j.json" ] && echo "ok - -j$j scan writes a report (exit $rc)" ||
		echo "not ok - -j$j scan exit $rc"
done
if cmp -s "$w/j1.json" "$w/j2.json"; then
	echo "ok - reports of -j1 and -j2 runs are byte-identical"
else
	echo "not ok - reports differ: $(diff "$w/j1.json" "$w/j2.json" | head -5)"
fi
grep -q generated_at "$w/j1.json" && echo "not ok - timestamp in a default report" ||
	echo "ok - no timestamp unless --generated-at"
"$ANALYZER/ioctl-scan" -q --generated-at --build-dir "$KOBJ" -o "$w/c.json" "$KSRC" drivers/char/random.c &&
	grep -q '"generated_at"' "$w/c.json" && echo "ok - --generated-at records the time" ||
	echo "not ok - --generated-at"
