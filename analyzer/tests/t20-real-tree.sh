#!/bin/bash
# Scans a handful of real 6.1 drivers and checks every command found against
# the value the kernel's own uapi headers give (a compiled probe), and that
# every ioctl macro written as a case label in those files was found.
set -u
list=$ANALYZER/tests/real_tree/drivers.txt
w=$WORK/real-tree
mkdir -p "$w"
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

# every ioctl macro of the headers used as a case label is found
for f in $files; do
	grep -oE 'case [A-Z][A-Z0-9_]+(\([^)]*\))?:' "$KSRC/$f" | sed -E 's/case ([A-Z0-9_]+).*/\1/' | sort -u |
	while read -r name; do
		grep -qE "^#define $name[ (].*_IO(R|W|WR)?\(|^#define $name[ (]" "$w/macros.txt" || continue
		grep -q "^$name " "$w/probe.out" || grep -qE "^#define $name[ (].*_IO" "$w/macros.txt" || continue
		if awk -F'\t' -v n="$name" '$3 == n { found = 1 } END { exit !found }' "$w/commands.tsv"; then
			echo "ok - $f: case $name found"
		else
			echo "not ok - $f: case $name not in the report"
		fi
	done
done
