#!/bin/bash
# Accuracy against the hand labels (tests/labels/linux-6.1): scans the
# labelled handlers' files, then fails on any unsafe error (a modify or
# admin command reported read), when class or capability agreement falls
# below the floors below (set from the measured figures; raise them as the
# analysis improves), or when labels are missing from the report. Two
# sets, each with its floors: the labels of the file-operations, block,
# tty and VFS handlers and the random samples not named below, and the labels
# of the surfaces reached through ops members, tables and passed
# functions (DRM, sockets, PTP, GPIO, the ALSA sequencer and compat
# handlers, media, V4L2) with the tenth, eleventh and twelfth random
# samples, drawn from them, the thirteenth, fourteenth and fifteenth,
# drawn from every kind (44 of 48 and 38 of 40 of the first two's
# commands are of these kinds), and the seventeenth and eighteenth, drawn
# from the commands these kinds reach that no label named.
set -u
MIN_AGREEMENT=${MIN_AGREEMENT:-94}
MIN_CAPABILITY=${MIN_CAPABILITY:-94}
REACH_MIN_AGREEMENT=${REACH_MIN_AGREEMENT:-93}
REACH_MIN_CAPABILITY=${REACH_MIN_CAPABILITY:-95}
# labels the report must contain: a handler the analyzer stopped finding
# takes its labels out of the agreement figure, but not out of this one
MIN_FOUND=${MIN_FOUND:-98}
w=$WORK/labels
rm -rf "$w"
mkdir -p "$w"
d=$ANALYZER/tests/labels/linux-6.1
reach="$d/drm.labels $d/net-ptp-gpio.labels $d/sound-media.labels $d/random-sample-10.labels
	$d/random-sample-11.labels $d/random-sample-12.labels $d/random-sample-13.labels
	$d/random-sample-14.labels $d/random-sample-15.labels $d/random-sample-17.labels
	$d/random-sample-18.labels $d/random-sample-22.labels"
first=$(ls $d/*.labels | grep -v -e /drm.labels -e /net-ptp-gpio.labels -e /sound-media.labels \
	-e /random-sample-10.labels -e /random-sample-11.labels -e /random-sample-12.labels \
	-e /random-sample-13.labels -e /random-sample-14.labels -e /random-sample-15.labels \
	-e /random-sample-17.labels -e /random-sample-18.labels -e /random-sample-22.labels)
files=$(cat $d/*.labels | grep -v '^#' | cut -f1 | sort -u)
# the block drivers that reach cdrom_ioctl
"$ANALYZER/ioctl-scan" -q --build-dir "$KOBJ" -o "$w/report.json" "$KSRC" $files drivers/scsi/sr.c
rc=$?
[ $rc -le 1 ] && echo "ok - scan of the labelled handlers (exit $rc)" || echo "not ok - scan exit $rc"
check() {
	local name=$1 agree=$2 caps=$3
	shift 3
	"$ANALYZER/ioctl-scan" labels "$w/report.json" "$@" \
		--min-agreement "$agree" --min-capability "$caps" \
		--min-found "$MIN_FOUND" > "$w/$name.out"
	local rc=$?
	grep -E '^(UNSAFE|missing)' "$w/$name.out" | sed "s/^/# $name: /"
	tail -7 "$w/$name.out" | sed "s/^/# $name: /"
	local unsafe=$(sed -n 's/^unsafe errors.*: //p' "$w/$name.out")
	[ "$unsafe" = 0 ] && echo "ok - $name: no unsafe errors" ||
		echo "not ok - $name: $unsafe unsafe errors (modify/admin labelled commands reported read)"
	[ $rc -eq 0 ] && echo "ok - $name: floors met (class >= $agree%, capability >= $caps%, labels found >= $MIN_FOUND%)" ||
		echo "not ok - $name: below the floors (class >= $agree%, capability >= $caps%, labels found >= $MIN_FOUND%)"
}
check first-labels "$MIN_AGREEMENT" "$MIN_CAPABILITY" $first
check reach-labels "$REACH_MIN_AGREEMENT" "$REACH_MIN_CAPABILITY" $reach
# a label that cannot be read is an error, not a label left out of the score
printf 'drivers/char/random.c\trandom_ioctl\tRNDGETENTCNT\treads\t\ttypo in the class\n' > "$w/malformed.labels"
"$ANALYZER/ioctl-scan" labels "$w/report.json" "$d/char.labels" "$w/malformed.labels" > /dev/null 2> "$w/malformed.err"
rc=$?
[ $rc -eq 2 ] && grep -q "malformed.labels:1: malformed label" "$w/malformed.err" &&
	echo "ok - a malformed label (class 'reads') is an error (exit 2)" ||
	echo "not ok - a malformed label: exit $rc"
