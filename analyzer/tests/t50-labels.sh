#!/bin/bash
# Accuracy against the hand labels (tests/labels/linux-6.1): scans the
# labelled handlers' files, then fails on any unsafe error (a modify or
# admin command reported read) and when class or capability agreement
# falls below the floors below (set from the measured figures; raise them
# as the analysis improves).
set -u
MIN_AGREEMENT=${MIN_AGREEMENT:-94}
MIN_CAPABILITY=${MIN_CAPABILITY:-94}
# labels the report must contain: a handler the analyzer stopped finding
# takes its labels out of the agreement figure, but not out of this one
MIN_FOUND=${MIN_FOUND:-98}
w=$WORK/labels
rm -rf "$w"
mkdir -p "$w"
labels=$ANALYZER/tests/labels/linux-6.1/*.labels
files=$(cat $labels | grep -v '^#' | cut -f1 | sort -u)
# the block drivers that reach cdrom_ioctl
"$ANALYZER/ioctl-scan" -q --build-dir "$KOBJ" -o "$w/report.json" "$KSRC" $files drivers/scsi/sr.c
rc=$?
[ $rc -le 1 ] && echo "ok - scan of the labelled handlers (exit $rc)" || echo "not ok - scan exit $rc"
"$ANALYZER/ioctl-scan" labels "$w/report.json" $labels \
	--min-agreement "$MIN_AGREEMENT" --min-capability "$MIN_CAPABILITY" \
	--min-found "$MIN_FOUND" > "$w/labels.out"
rc=$?
grep -E '^(UNSAFE|missing)' "$w/labels.out" | sed 's/^/# /'
tail -7 "$w/labels.out" | sed 's/^/# /'
unsafe=$(sed -n 's/^unsafe errors.*: //p' "$w/labels.out")
[ "$unsafe" = 0 ] && echo "ok - no unsafe errors on the labelled set" ||
	echo "not ok - $unsafe unsafe errors (modify/admin labelled commands reported read)"
[ $rc -eq 0 ] && echo "ok - agreement floors met (class >= $MIN_AGREEMENT%, capability >= $MIN_CAPABILITY%, labels found >= $MIN_FOUND%)" ||
	echo "not ok - accuracy below the floors (class >= $MIN_AGREEMENT%, capability >= $MIN_CAPABILITY%, labels found >= $MIN_FOUND%)"
