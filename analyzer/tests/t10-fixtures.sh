#!/bin/bash
# Fixtures of the miniature tree: handlers, commands, values and masks.
# Each fixture is scanned alone (check_fixtures); then the whole miniature
# tree is scanned with no file named, and every handler a fixture expects
# must be found by the tree walk too (the candidate filter must not drop
# a file the fixture's rule is about).
set -u
make -s -C "$ANALYZER" ioctl-scan build/tests/check_fixtures || exit 1
mkdir -p "$WORK/fixtures"
"$ANALYZER/build/tests/check_fixtures" "$ANALYZER/ioctl-scan" \
	"$ANALYZER/tests/fixtures/tree" "$WORK/fixtures"
rc=$?

t=$ANALYZER/tests/fixtures/tree
w=$WORK/fixtures-walk
rm -rf "$w"
mkdir -p "$w"
. "$ANALYZER/tests/lib/checks.sh"
fixture_compile_db "$t" > "$w/compile_commands.json"
cp "$t/fixtures.config" "$w/.config"
"$ANALYZER/ioctl-scan" -q -j2 --no-cache --compile-commands "$w/compile_commands.json" \
	-o "$w/report.json" "$t" 2> "$w/scan.err"
s=$?
[ $s -le 1 ] && echo "ok - walk: scan of the whole miniature tree exits $s" ||
	echo "not ok - walk: scan of the whole miniature tree exits $s: $(tail -1 "$w/scan.err")"
# `handler NAME KIND` of every fixture, against the report's handlers
grep -h '^ \* handler ' "$t"/drivers/*.c "$t"/fs/*.c | awk '{ print $3 "\t" $4 }' | sort -u > "$w/expected"
# a handler's "kind" follows its "name" (the pairs of commands and
# evidence this also prints match no fixture's handler line)
sed -n 's/^ *"\(name\|kind\)": "\([^"]*\)".*/\1 \2/p' "$w/report.json" |
	awk '$1 == "name" { n = $2 } $1 == "kind" { print n "\t" $2 }' | sort -u > "$w/found"
while IFS=$'\t' read -r name kind; do
	grep -qxF "$name	$kind" "$w/found" &&
		echo "ok - walk: handler $name ($kind) found without naming its file" ||
		echo "not ok - walk: handler $name ($kind) not found when the whole tree is walked"
done < "$w/expected"
exit $rc
