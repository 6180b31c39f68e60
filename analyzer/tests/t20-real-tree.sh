#!/bin/bash
# Scans a handful of real 6.1 drivers and checks every command found against
# the value the kernel's own uapi headers give (a compiled probe), and that
# every uapi macro written as a case label of a switch on the command in
# those files, legacy numeric commands included, was found.
set -u
list=$ANALYZER/tests/real_tree/drivers.txt
w=$WORK/real-tree
rm -rf "$w" && mkdir -p "$w"
files=$(grep -v '^#' "$list" | awk '{print $1}')
headers=$(grep -v '^#' "$list" | cut -c28- | tr ' ' '\n' | grep . | sort -u)

"$ANALYZER/ioctl-scan" -q --build-dir "$KOBJ" -o "$w/report.json" "$KSRC" $files
rc=$?
# 1: some file the analysis followed into did not parse (listed in the
# report); the drivers under test themselves must parse cleanly
[ $rc -le 1 ] && echo "ok - scan of the real drivers writes a report (exit $rc)" ||
	echo "not ok - scan exit status $rc"
for f in $files; do
	if grep -A2 "\"file\": \"$f\"" "$w/report.json" | grep -q '"severity": "error"'; then
		echo "not ok - $f failed to parse"
	else
		echo "ok - $f parses without errors"
	fi
done
"$ANALYZER/ioctl-scan" list "$w/report.json" > "$w/commands.tsv"

# the tree's uapi headers as exported for userspace (make headers)
[ -d "$KOBJ/usr/include/linux" ] || make -s -C "$KSRC" O="$KOBJ" LLVM=-14 headers >/dev/null
uapi="-I$KOBJ/usr/include"
{ for h in $headers; do echo "#include <$h>"; done; } > "$w/includes.h"
# every macro the headers define, with its parameter count
cc -E -dM $uapi -x c "$w/includes.h" > "$w/macros.txt" || { echo "not ok - uapi headers preprocess"; exit 1; }

# one probe line per command name the headers define
{
	echo "#include \"includes.h\""
	echo "#include <stdio.h>"
	echo "int main(void) {"
	cut -f3 "$w/commands.tsv" | sort -u | while read -r name; do
		def=$(grep -m1 -E "^#define $name[ (]" "$w/macros.txt") || continue
		if [[ $def == "#define $name("* ]]; then
			params=${def#*(}; params=${params%%)*}
			n=$(tr ',' '\n' <<<"$params" | wc -l)
			args=$(printf '0,%.0s' $(seq "$n")); args=${args%,}
			echo "printf(\"$name %x\\n\", (unsigned)($name($args)));"
		else
			echo "printf(\"$name %x\\n\", (unsigned)($name));"
		fi
	done
	echo "return 0; }"
} > "$w/probe.c"
cc -w $uapi -I"$w" -o "$w/probe" "$w/probe.c" && "$w/probe" > "$w/probe.out" ||
	{ echo "not ok - value probe compiles against the tree's uapi headers"; exit 1; }

# every command with a header-defined name has the header's value (under its mask)
checked=0
while IFS=$'\t' read -r handler kind name value mask class where; do
	expected=$(awk -v n="$name" '$1 == n { print $2 }' "$w/probe.out")
	[ -n "$expected" ] || continue
	checked=$((checked + 1))
	if (( (0x$expected & mask) == value )); then
		echo "ok - $handler $name = $value (mask $mask)"
	else
		echo "not ok - $handler $name: report $value mask $mask, header 0x$expected"
	fi
done < "$w/commands.tsv"
[ $checked -ge 100 ] && echo "ok - $checked commands checked against headers" ||
	echo "not ok - only $checked commands could be checked against headers"

# every case label of a switch on the command (tests/lib/cmd_cases.awk,
# which reads the files as text) that names a macro of the uapi headers is
# a command of the report: legacy numbers (TCGETS 0x5401) as much as
# _IO*() ones. Macros defined outside the uapi headers (compat numbers in
# the driver itself) are counted, not checked.
checked=0 others=0
for f in $files; do
	awk -f "$ANALYZER/tests/lib/cmd_cases.awk" "$KSRC/$f" > "$w/cases.txt" ||
		echo "not ok - $f: cmd_cases.awk failed"
	while read -r line names; do
		uapi=""
		for n in $names; do
			grep -qE "^#define $n[ (]" "$w/macros.txt" && uapi+=" $n"
		done
		if [ -z "$uapi" ]; then
			others=$((others + 1))
			continue
		fi
		checked=$((checked + 1))
		found=""
		for n in $uapi; do
			awk -F'\t' -v n="$n" '$3 == n { f = 1 } END { exit !f }' "$w/commands.tsv" && found=$n
		done
		[ -n "$found" ] && echo "ok - $f:$line: case$uapi found" ||
			echo "not ok - $f:$line: case$uapi not in the report"
	done < "$w/cases.txt"
done
[ $checked -ge 150 ] && echo "ok - $checked case labels of uapi macros checked ($others of other macros not checked)" ||
	echo "not ok - only $checked case labels of uapi macros found in the files ($others others)"
