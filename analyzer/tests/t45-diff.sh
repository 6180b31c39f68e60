#!/bin/bash
# ioctl-scan diff on two small reports whose differences are known by
# construction (tests/fixtures/diff/): a_ioctl's A_GET read -> modify
# (tighter), A_SET modify -> read (looser), A_RESET's capability
# CAP_SYS_ADMIN -> CAP_NET_ADMIN (both), A_GONE removed (looser), A_NEW
# added as read (tighter); b_ioctl removed (B_GET, looser); c_ioctl added
# with one unknown command (not in the table: no change in permissions).
set -u
d=$ANALYZER/tests/fixtures/diff
w=$WORK/diff
rm -rf "$w" && mkdir -p "$w"
scan=$ANALYZER/ioctl-scan

out=$("$scan" diff "$d/old.json" "$d/new.json"); rc=$?
want='handlers: 1 added, 1 removed; commands: 2 added, 2 removed, 3 reclassified; permissions: 3 tighter, 4 looser'
grep -qxF "$want" <<<"$out" && echo "ok - diff summary: $want" ||
	echo "not ok - diff summary: $(sed -n 2p <<<"$out")"
[ $rc -eq 5 ] && echo "ok - exit 5 when permissions both tighten and loosen" || echo "not ok - exit $rc, expected 5"
grep -q '^  ~ A_GET 0x80044101: read -> modify \[tighter\]$' <<<"$out" &&
	grep -q 'store store to a->x at drivers/a.c:10' <<<"$out" &&
	echo "ok - a reclassified command is shown with the new side's evidence" ||
	echo "not ok - A_GET line or its evidence missing"
grep -q '^b_ioctl (unlocked_ioctl) drivers/b.c: handler removed$' <<<"$out" &&
	echo "ok - a removed handler is reported" || echo "not ok - removed handler"

"$scan" diff "$d/old.json" "$d/old.json" > /dev/null; rc=$?
[ $rc -eq 0 ] && echo "ok - exit 0 for identical reports" || echo "not ok - exit $rc for identical reports"

# only tighter, only looser
sed 's/"name": "A_GET", "value": "0x80044101", "mask": "0xffffffff", "class": "read"/"name": "A_GET", "value": "0x80044101", "mask": "0xffffffff", "class": "admin"/' \
	"$d/old.json" > "$w/tighter.json"
sed -i 's/"class": "admin", "capabilities": \[\], "evidence": \[\]/"class": "admin", "capabilities": ["CAP_SYS_ADMIN"], "evidence": []/' "$w/tighter.json"
"$scan" diff "$d/old.json" "$w/tighter.json" > /dev/null; rc=$?
[ $rc -eq 1 ] && echo "ok - exit 1 when permissions only tighten" || echo "not ok - exit $rc, expected 1"
"$scan" diff "$w/tighter.json" "$d/old.json" > /dev/null; rc=$?
[ $rc -eq 4 ] && echo "ok - exit 4 when permissions only loosen" || echo "not ok - exit $rc, expected 4"

"$scan" diff --json "$d/old.json" "$d/new.json" > "$w/diff.json"
grep -q '"commands_reclassified": 3' "$w/diff.json" && grep -q '"permissions": "looser"' "$w/diff.json" &&
	echo "ok - --json gives the same summary and per-command permissions" || echo "not ok - --json output"

"$scan" diff "$d/old.json" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && echo "ok - usage error exits 2" || echo "not ok - usage error exit $rc"
"$scan" diff "$d/old.json" /nonexistent.json 2>/dev/null; rc=$?
[ $rc -eq 2 ] && echo "ok - unreadable report exits 2" || echo "not ok - unreadable report exit $rc"
