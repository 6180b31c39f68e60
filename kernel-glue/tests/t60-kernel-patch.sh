#!/bin/bash
# The patch series (kernel-glue/linux-<ver>/series): the committed table is
# what the generator makes of the committed report, the committed series is
# what make-series.sh makes of its sources, it applies without fuzz to a
# fresh extraction of the release, and every patch is checkpatch --strict
# clean. (The patched kernel is compiled, with W=1 and sparse, by the QEMU
# check.)
set -u
: "${KVER:=6.1}" "${KTAR:=/usr/src/linux-source-$KVER.tar.xz}"
rel=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$KSRC/Makefile" | paste -sd.)
gen=$ROOT/generated/linux-$rel
glue=$ROOT/kernel-glue/linux-$KVER
w=$WORK/kernel-patch
rm -rf "$w" && mkdir -p "$w"

if "$ANALYZER/ioctl-scan" table "$gen/report.json" -o "$w/table.c" > "$w/table.out" &&
	cmp -s "$w/table.c" "$gen/ioctl_semantics_table.c"; then
	echo "ok - generated/linux-$rel/ioctl_semantics_table.c is what the generator makes of report.json"
else
	echo "not ok - the committed table is stale: run make generate"
fi

if "$ROOT/kernel-glue/make-series.sh" "$KSRC" "$glue" "$gen/ioctl_semantics_table.c" "$w/series" 2> "$w/series.err" &&
	diff -r "$w/series" "$glue/series" > "$w/series.diff"; then
	echo "ok - the committed series is what make-series.sh makes of kernel-glue/ and the table"
else
	echo "not ok - the committed series is stale: run make kernel-patch ($(head -c 300 "$w/series.err" "$w/series.diff" 2>/dev/null))"
fi

# a fresh extraction of what the series touches
top=$(basename "$KTAR" .tar.xz)
files=$(grep -h "^--- a/" "$glue"/series/*.patch | grep -v "^--- a/security/selinux/" | sed "s|^--- a/|$top/|" | sort -u)
mkdir -p "$w/fresh"
tar -C "$w/fresh" -xf "$KTAR" --wildcards "$top/security/selinux/*" $files
for p in "$glue"/series/*.patch; do
	name=$(basename "$p")
	if out=$(patch -p1 --fuzz=0 --no-backup-if-mismatch -d "$w/fresh/$top" < "$p" 2>&1) &&
		! grep -qi 'offset\|fuzz' <<<"$out"; then
		echo "ok - $name applies cleanly to a fresh extraction of $(basename "$KTAR")"
	else
		echo "not ok - $name does not apply cleanly: $out"
	fi
done

for p in "$glue"/series/*.patch; do
	name=$(basename "$p")
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl --strict --no-color "$p" 2>&1)
	total=$(grep '^total:' <<<"$out")
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
		echo "ok - checkpatch --strict $name: $total"
	else
		echo "not ok - checkpatch --strict $name: $total"
		grep -E '^(ERROR|WARNING|CHECK)' <<<"$out" | head -10 | sed 's/^/# /'
	fi
done
