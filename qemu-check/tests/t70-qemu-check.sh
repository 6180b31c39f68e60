#!/bin/bash
# The end-to-end check: the patched kernel, booted under QEMU, enforces the
# generated table (qemu-check/run.sh; the guest prints one line per check),
# and the table is right for the commands the guest issues: run.sh's
# make_cases fails before the boot when the report's class of a case is not
# the hand-checked class of qemu-check/cases.conf, and the guest expects the
# hand-checked class (t69 shows that a wrong class in cases.conf fails).
# Builds both kernels (with and without the option) on the first run; later
# runs reuse the build directories.
#
# The table and report are the installed release's set
# (analyzer/tests/lib/generated.sh): the committed one, with the committed
# series, or, for a release with no committed set, the one t15 generated,
# with the series make-series.sh makes for it.
set -u
: "${KVER:=6.1}" "${BUILD:=$ROOT/build}"
. "$ANALYZER/tests/lib/generated.sh"
w=$WORK/qemu-check
rm -rf "$w" && mkdir -p "$w"
rel=$(release_of "$KSRC")
gen=$(generated_set "$rel")
series=$ROOT/kernel-glue/linux-$KVER/series
if [ ! -f "$gen/report.json" ]; then
	echo "not ok - no generated set for $rel (t15 makes one)"
	exit 1
fi
if [ "$gen" != "$(committed_set "$rel")" ]; then
	series=$w/series
	if ! "$ROOT/kernel-glue/make-series.sh" "$KSRC" "$ROOT/kernel-glue/linux-$KVER" \
		"$gen/ioctl_semantics_table.c" "$series" 2> "$w/series.err"; then
		echo "not ok - make-series.sh cannot make the series for $rel: $(head -c 300 "$w/series.err")"
		exit 1
	fi
	echo "# $rel has no committed set: booting the series made for the set t15 generated"
fi
export KVER QBUILD=$BUILD/qemu-$KVER REPORT=$gen/report.json SERIES=$series
"$ROOT/qemu-check/run.sh" semantics plain
