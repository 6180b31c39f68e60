#!/bin/bash
# SARIF: on the diff fixture's second report, exactly the admin command
# (A_RESET) and the unknown one (C_GET) give results; a real scan with
# --format sarif gives SARIF 2.1.0 whose results are random.c's admin
# commands, located at their case labels in drivers/char/random.c.
set -u
w=$WORK/sarif
mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
"$scan" sarif "$ANALYZER/tests/fixtures/diff/new.json" -o "$w/fixture.sarif"
n=$(grep -c '"ruleId"' "$w/fixture.sarif")
grep -q '"ruleId": "ioctl-admin"' "$w/fixture.sarif" && grep -q '"ruleId": "ioctl-unknown"' "$w/fixture.sarif" &&
	[ "$n" -eq 2 ] && echo "ok - one result for the admin and one for the unknown command, none for the rest" ||
	echo "not ok - $n results in $w/fixture.sarif"
grep -q '"version": "2.1.0"' "$w/fixture.sarif" && echo "ok - SARIF version 2.1.0" || echo "not ok - no version"

"$scan" -q -j2 --format sarif --build-dir "$KOBJ" -o "$w/random.sarif" "$KSRC" drivers/char/random.c
admins=$("$scan" -q -j2 --build-dir "$KOBJ" "$KSRC" drivers/char/random.c | grep -c '"class": "admin"')
got=$(grep -c '"ruleId": "ioctl-admin"' "$w/random.sarif")
[ "$got" -gt 0 ] && [ "$got" -eq "$admins" ] &&
	echo "ok - --format sarif: $got ioctl-admin results, one per admin command of random.c" ||
	echo "not ok - --format sarif: $got ioctl-admin results for $admins admin commands"
grep -q '"uri": "drivers/char/random.c"' "$w/random.sarif" && grep -q '"uriBaseId": "KSRC"' "$w/random.sarif" &&
	echo "ok - results are located in drivers/char/random.c relative to the tree" ||
	echo "not ok - locations"
"$scan" --format xml "$KSRC" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && echo "ok - an unknown --format is a usage error" || echo "not ok - --format xml exit $rc"
