#!/bin/bash
# Bad input gets a clear one-line message and the documented exit status,
# and never a truncated report.
set -u
scan=$ANALYZER/ioctl-scan
w=$WORK/bad-input
rm -rf "$w"; mkdir -p "$w"
fixtree=$ANALYZER/tests/fixtures/tree

expect() {	# expect STATUS PATTERN DESCRIPTION -- command...
	local want=$1 pattern=$2 desc=$3; shift 4
	"$@" >"$w/out" 2>"$w/err"; local rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE -e "$pattern" "$w/err"; then
		echo "ok - $desc"
	else
		echo "not ok - $desc (exit $rc, stderr: $(head -c 300 "$w/err"))"
	fi
}

expect 2 "missing KSRC" "no arguments: usage error" -- "$scan"
expect 2 "unrecognized|invalid" "unknown option: usage error" -- "$scan" --frobnicate x
expect 2 "-j needs" "bad -j: usage error" -- "$scan" -j zero "$KSRC"
expect 2 "no such directory" "missing KSRC" -- "$scan" "$w/nonexistent"
mkdir -p "$w/notatree"
expect 2 "not a kernel source tree" "a directory that is not a kernel tree" -- "$scan" "$w/notatree"
expect 2 "not prepared" "an unprepared tree (no build directory)" -- "$scan" "$KSRC"
expect 2 "PATHs are relative" "a PATH that does not exist" -- "$scan" --build-dir "$KOBJ" "$KSRC" drivers/nonexistent.c
echo '{ this is not json' > "$w/compile_commands.json"
expect 2 "compile database" "a broken compile database" -- "$scan" --compile-commands "$w/compile_commands.json" "$fixtree"
expect 2 "cannot write" "an unwritable output" -- "$scan" --build-dir "$KOBJ" -o /proc/version/report.json "$KSRC" drivers/char/random.c

# a tree with a file that does not parse, a binary and a huge one
t=$w/tree
cp -r "$fixtree" "$t"
cat > "$t/drivers/broken.c" <<'C'
#include <linux/fs.h>
static long broken_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case _IO('b', 1): return 0;
	case undeclared_thing: return 1;
	}
	return -ENOTTY
}
static const struct file_operations broken_fops = { .unlocked_ioctl = broken_ioctl };
C
# a store through a struct the file never declares: clang keeps it as an
# expression recovered from an error, whose child is the pointer itself
cat > "$t/drivers/recovered.c" <<'C'
#include <linux/fs.h>
#define RECOVERED_SET _IO('r', 1)
struct recovered_dev;
static long recovered_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct recovered_dev *d = f->private_data;

	switch (cmd) {
	case RECOVERED_SET:
		d->mode = arg;
		return 0;
	}
	return -ENOTTY;
}
static const struct file_operations recovered_fops = { .unlocked_ioctl = recovered_ioctl };
C
printf 'static const struct file_operations f = { .unlocked_ioctl = 0 };\0\1\2' > "$t/drivers/binary.c"
{ echo 'struct file_operations; /* unlocked_ioctl */'; head -c 9000000 /dev/zero | tr '\0' ' '; } > "$t/drivers/huge.c"
printf '[\n' > "$w/cc.json"; first=1
for f in "$t"/drivers/*.c "$t"/fs/*.c; do
	[ $first -eq 1 ] || printf ',\n' >> "$w/cc.json"; first=0
	printf '{ "directory": "%s", "file": "%s", "command": "cc -I%s/include -c %s" }' "$t" "$f" "$t" "$f" >> "$w/cc.json"
done
printf '\n]\n' >> "$w/cc.json"
cp "$w/cc.json" "$w/compile_commands.json"
"$scan" -q --compile-commands "$w/compile_commands.json" -o "$w/r.json" "$t" >"$w/out" 2>"$w/err"
rc=$?
[ $rc -eq 1 ] && echo "ok - files that fail to parse give exit status 1" || echo "not ok - exit $rc for a tree with broken files"
for f in broken binary huge; do
	if "$scan" list "$w/r.json" >/dev/null && grep -q "\"file\": \"drivers/$f.c\"" "$w/r.json"; then
		echo "ok - drivers/$f.c has a diagnostic in the report"
	else
		echo "not ok - drivers/$f.c has no diagnostic"
	fi
done
grep -q "larger than 8 MiB" "$w/r.json" && echo "ok - the huge file is refused by size" || echo "not ok - huge file message"
grep -q "binary file" "$w/r.json" && echo "ok - the binary file is refused" || echo "not ok - binary file message"
got=$("$scan" list "$w/r.json" --handler recovered_ioctl | awk -F'\t' '$3 == "RECOVERED_SET" { print $6 }')
[ "$got" = modify ] || [ "$got" = unknown ] &&
	echo "ok - a store clang could only recover from is not a local's ($got)" ||
	echo "not ok - a store in code with errors is '$got'"
"$scan" list "$w/r.json" --handler demo_ioctl | grep -q DEMO_RESET &&
	echo "ok - the other files are still scanned" || echo "not ok - good files lost"

# an interrupted run leaves neither a report nor a temporary file
# (--no-cache: from a warm cache the scan could end before the signal)
"$scan" --no-cache --build-dir "$KOBJ" -j1 -o "$w/interrupted.json" "$KSRC" drivers/tty >/dev/null 2>&1 &
pid=$!
sleep 3
kill -INT $pid
start=$SECONDS
wait $pid; rc=$?
if [ $rc -eq 130 ] && [ $((SECONDS - start)) -le 10 ]; then
	echo "ok - SIGINT stops the scan promptly with status 130"
else
	echo "not ok - SIGINT: exit $rc after $((SECONDS - start))s"
fi
if ls "$w"/interrupted.json* >/dev/null 2>&1; then
	echo "not ok - an interrupted run left $(ls "$w"/interrupted.json*)"
else
	echo "ok - an interrupted run leaves no report and no temporary file"
fi
# an existing report survives a failed run untouched
echo '{"previous": true}' > "$w/keep.json"
"$scan" -o "$w/keep.json" "$w/nonexistent" 2>/dev/null
grep -q previous "$w/keep.json" && echo "ok - a failed run does not touch an existing report" ||
	echo "not ok - a failed run clobbered the report"
