#!/bin/bash
# The patch series of every supported release (kernel-glue/linux-<ver>/):
# the committed table is what the generator makes of the committed report,
# the committed series is what make-series.sh makes of its sources, it
# applies without fuzz or offset to a fresh extraction of the release's
# tarball, and every patch is checkpatch --strict clean (with that
# release's checkpatch). The patched kernel is compiled, with W=1 and
# sparse, by the QEMU check.
#
# The installed tarball may be a newer point release than the committed
# set (analyzer/tests/lib/generated.sh): then the table is checked in the
# set t15 generated for it (or, for a release nothing scanned, the newest
# committed one), and the series checked is the one make-series.sh makes
# for the installed release, which t70 boots; the committed series is for
# the committed release and is compared only with a tree of that release.
set -u
. "$ANALYZER/tests/lib/generated.sh"
w=$WORK/kernel-patch
rm -rf "$w" && mkdir -p "$w"

check_release() {
	local ver=$1 glue=$ROOT/kernel-glue/linux-$1 tar=/usr/src/linux-source-$1.tar.xz
	local top=linux-source-$1 fresh=$w/$1 rel gen series p name out
	if [ ! -f "$tar" ]; then
		echo "not ok - $tar is missing (make deps installs linux-source-$ver)"
		return
	fi
	# a fresh extraction of what the series touches, and checkpatch
	mkdir -p "$fresh"
	tar -C "$fresh" -xf "$tar" --wildcards "$top/security/selinux/*" "$top/scripts/*" \
		"$top/Makefile" $(grep -h "^--- a/" "$glue"/series/*.patch |
		grep -v "^--- a/security/selinux/" | sed "s|^--- a/|$top/|" | sort -u)
	rel=$(release_of "$fresh/$top")
	gen=$(generated_set "$rel")
	if [ ! -d "$gen" ]; then
		gen=$(newest_committed_set "$ver")
		if [ -z "$gen" ]; then
			echo "not ok - $ver: no generated set for any $ver release: run make generate KVER=$ver"
			return
		fi
		echo "# $rel: no set generated for it; checking the table of $(basename "$gen")"
	fi
	cp -r "$fresh/$top" "$fresh/pristine"

	if "$ANALYZER/ioctl-scan" table "$gen/report.json" -o "$w/table-$ver.c" > /dev/null &&
		cmp -s "$w/table-$ver.c" "$gen/ioctl_semantics_table.c"; then
		echo "ok - $(basename "$gen"): ioctl_semantics_table.c is what the generator makes of report.json"
	else
		echo "not ok - $(basename "$gen"): the table is stale: run make generate KVER=$ver"
	fi
	if ! "$ROOT/kernel-glue/make-series.sh" "$fresh/pristine" "$glue" "$gen/ioctl_semantics_table.c" \
		"$w/series-$ver" 2> "$w/series-$ver.err"; then
		echo "not ok - $ver: make-series.sh cannot make the series for $rel: $(head -c 300 "$w/series-$ver.err")"
		return
	fi
	if [ "$gen" = "$(committed_set "$rel")" ]; then
		series=$glue/series
		if diff -r "$w/series-$ver" "$series" > "$w/series-$ver.diff"; then
			echo "ok - $ver: the committed series is what make-series.sh makes of its sources"
		else
			echo "not ok - $ver: the committed series is stale: run make kernel-patch KVER=$ver ($(head -c 300 "$w/series-$ver.diff"))"
		fi
	else
		series=$w/series-$ver
		echo "# $ver: the committed series is not for $rel; checking the series made for it"
	fi
	for p in "$series"/*.patch; do
		name=$(basename "$p")
		if out=$(patch -p1 --fuzz=0 --no-backup-if-mismatch -d "$fresh/$top" < "$p" 2>&1) &&
			! grep -qi 'offset\|fuzz' <<<"$out"; then
			echo "ok - $ver: $name applies cleanly to a fresh extraction of $(basename "$tar")"
		else
			echo "not ok - $ver: $name does not apply cleanly: $out"
		fi
	done
	for p in "$series"/*.patch; do
		name=$(basename "$p")
		out=$(cd "$fresh/pristine" && perl scripts/checkpatch.pl --strict --no-tree --no-color "$p" 2>&1)
		if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
			echo "ok - $ver: checkpatch --strict $name: $(grep '^total:' <<<"$out")"
		else
			echo "not ok - $ver: checkpatch --strict $name: $(grep '^total:' <<<"$out")"
			grep -E '^(ERROR|WARNING|CHECK)' <<<"$out" | head -10 | sed 's/^/# /'
		fi
	done
}

for g in "$ROOT"/kernel-glue/linux-*/; do
	check_release "$(basename "$g" | sed 's/^linux-//')"
done
