#!/bin/bash
# make bench: ioctl-scan against its floor, clang -fsyntax-only over exactly
# the files the scan parsed with the same flags and parallelism, and the
# facts cache's rescans, all in one run. Not a test: nothing here fails on
# speed. Prints:
#  - a cold whole scan that fills an empty cache;
#  - the parse stage against clang, interleaved in batches of files (ABBA:
#    the order alternates, so that both sides see the same noise), with the
#    median of the per-batch ratios and their spread (target <= 1.15);
#  - a warm rescan of the unchanged tree (target <= 10 s);
#  - rescans after touching 1% of the parsed files (mtime only) and after
#    editing them (one comment appended; undone on exit): target <= 10% of
#    the cold scan;
#  each with the number of files parsed.
# usage: bench.sh KSRC KOBJ JOBS [PATH...]   (PATHs limit the scan, as for make scan)
set -u
KSRC=$1 KOBJ=$2 JOBS=$3
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
w=$here/build/bench
rm -rf "$w"
mkdir -p "$w"
scan=$here/ioctl-scan
# BATCHES batches; BENCH_EVERY=N takes every Nth file (largest first) into
# the interleaved comparison, to shorten it on a slow machine
BATCHES=${BATCHES:-8}
BENCH_EVERY=${BENCH_EVERY:-1}

seconds() { awk '{ v = $1 } END { print v }' "$1"; }	# /usr/bin/time's last line
parsed() { grep -vc '^hit' "$1"; }

# timed_scan NAME CACHE-DIR [PATH...]: a whole scan, timed, with its cache log
timed_scan() {
	local name=$1 cache=$2

	shift 2
	/usr/bin/time -f "%e %M" -o "$w/$name.time" \
		"$scan" -q -j"$JOBS" --build-dir "$KOBJ" --cache-dir "$cache" \
		--cache-log "$w/$name.log" --files-out "$w/$name.files" \
		--times-out "$w/$name.phases" -o "$w/$name.json" "$KSRC" "$@"
}

echo "bench: $KSRC ${*:-(whole tree)}, -j$JOBS"
timed_scan cold "$w/cache" "$@"
cold_s=$(seconds "$w/cold.time")
cold_kb=$(awk '{ v = $2 } END { print v }' "$w/cold.time")
nfiles=$(wc -l < "$w/cold.files")
cache_mb=$(du -sm "$w/cache" | cut -f1)

# The parse stage, interleaved with clang in batches of similar size.
"$scan" flags --build-dir "$KOBJ" "$KSRC" $(cat "$w/cold.files") > "$w/clang-commands.txt"
paste "$w/cold.files" "$w/clang-commands.txt" |
	while IFS=$'\t' read -r f cmd; do
		printf '%s\t%s\t%s\n' "$(stat -c %s "$KSRC/$f")" "$f" "$cmd"
	done | sort -rn | awk -F'\t' -v b="$BATCHES" -v d="$w" -v every="$BENCH_EVERY" '(NR - 1) % every == 0 {
		i = int((NR - 1) / every) % b
		print $2 > (d "/batch" i ".files")
		print $3 > (d "/batch" i ".clang")
	}'
run_scan_batch() {
	/usr/bin/time -f "%e" -o "$w/batch$1.scan.time" \
		"$scan" -q -j"$JOBS" --parse-only --build-dir "$KOBJ" --cache-dir "$w/batch-cache$1" \
		"$KSRC" $(cat "$w/batch$1.files") 2>/dev/null
}
run_clang_batch() {
	/usr/bin/time -f "%e" -o "$w/batch$1.clang.time" \
		xargs -P"$JOBS" -d '\n' -n1 sh -c 'eval "$0" >/dev/null 2>&1 || true' < "$w/batch$1.clang"
}
for ((i = 0; i < BATCHES; i++)); do
	[ -s "$w/batch$i.files" ] || continue
	if [ $((i % 4)) -eq 0 ] || [ $((i % 4)) -eq 3 ]; then
		run_scan_batch $i; run_clang_batch $i
	else
		run_clang_batch $i; run_scan_batch $i
	fi
	rm -rf "$w/batch-cache$i"
done

# Rescans: unchanged; 1% touched; 1% edited.
timed_scan warm "$w/cache" "$@"
k=$(( (nfiles + 99) / 100 ))
shuf -n "$k" --random-source=<(yes) "$w/cold.files" > "$w/picked.list"
while read -r f; do touch "$KSRC/$f"; done < "$w/picked.list"
timed_scan touched "$w/cache" "$@"
restore() {
	while read -r f; do
		[ -f "$w/orig/$f" ] && cp -p "$w/orig/$f" "$KSRC/$f"
	done < "$w/picked.list"
}
trap restore EXIT
while read -r f; do
	mkdir -p "$w/orig/$(dirname "$f")"
	cp -p "$KSRC/$f" "$w/orig/$f"
	echo "/* make bench: an edit */" >> "$KSRC/$f"
done < "$w/picked.list"
timed_scan edited "$w/cache" "$@"
restore
trap - EXIT

printf 'files parsed by a cold scan: %d\n' "$nfiles"
printf 'cold scan, empty cache:   %7.1f s  (peak RSS %.0f MiB; cache %d MiB)\n' \
	"$cold_s" "$(echo "$cold_kb / 1024" | bc -l)" "$cache_mb"
echo "parse stage against clang -fsyntax-only, -j$JOBS, $BATCHES batches interleaved (ABBA)$( [ "$BENCH_EVERY" -gt 1 ] && echo ", 1 file in $BENCH_EVERY"):"
for ((i = 0; i < BATCHES; i++)); do
	[ -s "$w/batch$i.files" ] || continue
	printf '%s %s %s\n' "$(wc -l < "$w/batch$i.files")" \
		"$(seconds "$w/batch$i.scan.time")" "$(seconds "$w/batch$i.clang.time")"
done | awk -v cold="$cold_s" -v all="$nfiles" '{
	n++; files[n] = $1; s[n] = $2; c[n] = $3; r[n] = $2 / $3; ts += $2; tc += $3
	printf "  batch %d: %4d files  ioctl-scan %6.1f s  clang %6.1f s  ratio %.3f\n", n, $1, $2, $3, r[n]
} END {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
	med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
	printf "  median ratio %.3f (spread %.3f .. %.3f; target <= 1.15)\n", med, r[1], r[n]
	printf "  totals: ioctl-scan %.1f s, clang %.1f s, ratio %.3f\n", ts, tc, ts / tc
	for (i = 1; i <= n; i++)
		sampled += files[i]
	if (sampled == all)
		printf "  whole cold scan / clang total: %.3f (the scan also reads the tree and classifies)\n", cold / tc
	else
		printf "  whole cold scan / clang total scaled to all %d files (%.1f s): %.3f\n", all, tc * all / sampled, cold / (tc * all / sampled)
}'
for run in warm touched edited; do
	printf '%-26s%7.1f s  %4d files parsed  (%.1f%% of the cold scan)\n' \
		"$(case $run in warm) echo "warm rescan, unchanged:";; touched) echo "rescan, 1% touched ($k):";;
		   edited) echo "rescan, 1% edited ($k):";; esac)" \
		"$(seconds "$w/$run.time")" "$(parsed "$w/$run.log")" \
		"$(echo "100 * $(seconds "$w/$run.time") / $cold_s" | bc -l)"
done
for run in cold warm edited; do
	cmp -s "$w/cold.json" "$w/$run.json" || [ $run = edited ] ||
		echo "NOTE: the $run report differs from the cold one"
done
echo "cold scan by phase (wall clock):"
awk -F'\t' '{ printf "  %-36s %6.1f s\n", $1, $2 }' "$w/cold.phases"
echo "warm rescan by phase (wall clock):"
awk -F'\t' '{ printf "  %-36s %6.1f s\n", $1, $2 }' "$w/warm.phases"
