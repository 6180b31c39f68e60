#!/bin/bash
# The tree-derived yardstick (ioctl-scan coverage): of the command macros
# that real 6.1 dispatchers use in case labels, comparisons and tables,
# how many the report finds. The files are the table, ops-member and
# callback dispatchers: DRM's core table and a driver table, the media
# controller's and the ALSA sequencer's tables, habanalabs, PTP, GPIO, a
# protocol's ioctl. A floor, and a check that the yardstick can fail: a
# report of one of those files alone finds far fewer.
set -u
MIN_FOUND=${MIN_FOUND:-90}
w=$WORK/coverage
rm -rf "$w"
mkdir -p "$w"
paths="drivers/gpu/drm/drm_ioctl.c drivers/gpu/drm/vgem drivers/media/mc/mc-device.c
	sound/core/seq/seq_clientmgr.c drivers/misc/habanalabs/common/habanalabs_ioctl.c
	drivers/ptp/ptp_chardev.c drivers/gpio/gpiolib-cdev.c net/ipv4/af_inet.c"
"$ANALYZER/ioctl-scan" -q --build-dir "$KOBJ" -o "$w/report.json" "$KSRC" $paths
rc=$?
[ $rc -le 1 ] && echo "ok - scan of the table and ops dispatchers (exit $rc)" || echo "not ok - scan exit $rc"
"$ANALYZER/ioctl-scan" coverage "$w/report.json" "$KSRC" --build-dir "$KOBJ" --missing \
	--min-found "$MIN_FOUND" $paths > "$w/coverage.out"
rc=$?
grep '^missing' "$w/coverage.out" | sed 's/^/# /'
tail -3 "$w/coverage.out" | sed 's/^/# /'
[ $rc -eq 0 ] && echo "ok - dispatched command macros found >= $MIN_FOUND%" ||
	echo "not ok - dispatched command macros found below $MIN_FOUND% (exit $rc)"
# the yardstick counts what a report lacks: with the PTP driver alone,
# the other files' macros are missing
"$ANALYZER/ioctl-scan" -q --build-dir "$KOBJ" -o "$w/ptp.json" "$KSRC" drivers/ptp/ptp_chardev.c
"$ANALYZER/ioctl-scan" coverage "$w/ptp.json" "$KSRC" --build-dir "$KOBJ" \
	--min-found "$MIN_FOUND" $paths > "$w/ptp.out"
rc=$?
found=$(sed -n 's/^found in the report: \([0-9]*\)\/.*/\1/p' "$w/ptp.out")
all=$(sed -n 's/^found in the report: [0-9]*\/\([0-9]*\) .*/\1/p' "$w/ptp.out")
[ $rc -eq 1 ] && [ -n "$found" ] && [ "$found" -lt $((all / 4)) ] &&
	echo "ok - a report of one file fails the floor ($found/$all found)" ||
	echo "not ok - the yardstick did not notice missing handlers (exit $rc, ${found:-?}/${all:-?})"
