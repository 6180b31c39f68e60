#!/bin/bash
# The same tree and options give a byte-identical report, whatever -j.
# (--no-cache: the files are parsed in a different order each time, which
# is what this checks; t41 checks that the cache changes nothing.)
set -u
w=$WORK/determinism
mkdir -p "$w"
paths="drivers/char/random.c drivers/rtc drivers/block/loop.c drivers/input/evdev.c"
"$ANALYZER/ioctl-scan" -q -j1 --no-cache --build-dir "$KOBJ" -o "$w/a.json" "$KSRC" $paths
"$ANALYZER/ioctl-scan" -q -j2 --no-cache --build-dir "$KOBJ" -o "$w/b.json" "$KSRC" $paths
if cmp -s "$w/a.json" "$w/b.json"; then
	echo "ok - reports of -j1 and -j2 runs are byte-identical"
else
	echo "not ok - reports differ: $(diff "$w/a.json" "$w/b.json" | head -5)"
fi
grep -q generated_at "$w/a.json" && echo "not ok - timestamp in a default report" ||
	echo "ok - no timestamp unless --generated-at"
"$ANALYZER/ioctl-scan" -q --generated-at --build-dir "$KOBJ" -o "$w/c.json" "$KSRC" drivers/char/random.c
grep -q '"generated_at"' "$w/c.json" && echo "ok - --generated-at records the time" ||
	echo "not ok - --generated-at"
