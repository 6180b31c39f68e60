#!/bin/bash
# make bench: the whole-tree scan against clang -fsyntax-only over exactly
# the files the scan parsed, with the same flags and parallelism, in one run.
# Prints both times, the ratio (target: at most 1.15, parsing is the
# floor), files per second and the scan's peak memory. Not a test: nothing
# here fails on speed.
# usage: bench.sh KSRC KOBJ JOBS [PATH...]   (PATHs limit the scan, as for make scan)
set -u
KSRC=$1 KOBJ=$2 JOBS=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
w=$here/build/bench
mkdir -p "$w"
scan=$here/ioctl-scan

echo "bench: scanning $KSRC ${*:-(whole tree)} with -j$JOBS"
/usr/bin/time -f "%e %M" -o "$w/scan.time" \
	"$scan" -q -j"$JOBS" --build-dir "$KOBJ" --files-out "$w/files.txt" \
	--times-out "$w/phases.txt" -o "$w/report.json" "$KSRC" "$@"
# the last line: /usr/bin/time first notes a non-zero exit (1: some file
# did not parse) on a line of its own
read -r scan_s scan_kb < <(tail -n 1 "$w/scan.time")
nfiles=$(wc -l < "$w/files.txt")

"$scan" flags --build-dir "$KOBJ" "$KSRC" $(cat "$w/files.txt") > "$w/clang-commands.txt"
/usr/bin/time -f "%e %M" -o "$w/clang.time" \
	xargs -P"$JOBS" -d '\n' -n1 sh -c 'eval "$0" >/dev/null 2>&1 || true' < "$w/clang-commands.txt"
read -r clang_s clang_kb < <(tail -n 1 "$w/clang.time")

awk -v s="$scan_s" -v c="$clang_s" -v n="$nfiles" -v kb="$scan_kb" -v j="$JOBS" 'BEGIN {
	printf "files parsed:            %d (the same set for both)\n", n
	printf "ioctl-scan:              %.1f s (%.2f files/s, peak RSS %.0f MiB)\n", s, n / s, kb / 1024
	printf "clang -fsyntax-only:     %.1f s (%.2f files/s), -j%d\n", c, n / c, j
	printf "ratio scan / parse:      %.3f (target <= 1.15)\n", s / c
}'
echo "ioctl-scan by phase (wall clock):"
awk -F'\t' '{ printf "  %-36s %6.1f s\n", $1, $2 }' "$w/phases.txt"
