#!/bin/bash
# SARIF: on the diff fixture's second report, exactly the admin command
# (A_RESET) and the unknown one (C_GET) give results; a real scan with
# --format sarif gives SARIF 2.1.0 whose results are random.c's admin
# commands, located at their case labels in drivers/char/random.c.
set -u
w=$WORK/sarif
rm -rf "$w" && mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
"$scan" sarif "$ANALYZER/tests/fixtures/diff/new.json" -o "$w/fixture.sarif" ||
	echo "not ok - ioctl-scan sarif exit $?"
n=$(grep -c '"ruleId"' "$w/fixture.sarif")
grep -q '"ruleId": "ioctl-admin"' "$w/fixture.sarif" && grep -q '"ruleId": "ioctl-unknown"' "$w/fixture.sarif" &&
	[ "$n" -eq 2 ] && echo "ok - one result for the admin and one for the unknown command, none for the rest" ||
	echo "not ok - $n results in $w/fixture.sarif"
grep -q '"version": "2.1.0"' "$w/fixture.sarif" && echo "ok - SARIF version 2.1.0" || echo "not ok - no version"

"$scan" -q -j2 --format sarif --build-dir "$KOBJ" -o "$w/random.sarif" "$KSRC" drivers/char/random.c ||
	echo "not ok - scan with --format sarif exit $?"
# the expected results: random_ioctl's commands hand-labelled admin
# (tests/labels/, each justified at its capable() line in random.c)
want=$(awk -F'\t' '$1 == "drivers/char/random.c" && $4 == "admin" { print $3 }' \
	"$ANALYZER"/tests/labels/linux-6.1/*.labels | sort -u)
got=$(grep -o '"text": "[A-Z0-9_]* 0x[0-9a-f]* ([^)]*) of random_ioctl: admin' "$w/random.sarif" |
	awk '{ print $2 }' | tr -d '"' | sort -u)
n=$(grep -c '"ruleId": "ioctl-admin"' "$w/random.sarif")
[ -n "$want" ] && [ "$got" = "$want" ] && [ "$n" -eq "$(wc -l <<<"$want")" ] &&
	echo "ok - --format sarif: one ioctl-admin result for each labelled admin command of random.c ($(echo $want))" ||
	echo "not ok - --format sarif: $n ioctl-admin results ($(echo $got)) for the labelled admin commands ($(echo $want))"
grep -q '"uri": "drivers/char/random.c"' "$w/random.sarif" && grep -q '"uriBaseId": "KSRC"' "$w/random.sarif" &&
	echo "ok - results are located in drivers/char/random.c relative to the tree" ||
	echo "not ok - locations"
"$scan" --format xml "$KSRC" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && echo "ok - an unknown --format is a usage error" || echo "not ok - --format xml exit $rc"
