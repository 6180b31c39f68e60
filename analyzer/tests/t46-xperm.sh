#!/bin/bash
# ioctl-scan xperm on a small report built for it (tests/fixtures/xperm):
# X_GET (read) shares its low 16 bits 0x5801 with X_SET (modify), so 0x5801
# must not be granted; X_INFO 0x5802 is; X_RESET (admin) and X_MAYBE
# (unknown) are not; the family X_GETBIT (mask 0xc000fff0) covers
# 0x5810-0x581f. The rules must compile with checkpolicy inside the QEMU
# check's policy.
set -u
w=$WORK/xperm
mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
r=$ANALYZER/tests/fixtures/xperm/report.json

"$scan" xperm "$r" --domain ro_t --type test_dev_t > "$w/rules.te"
want="allowxperm ro_t test_dev_t:chr_file ioctl { 0x5802 $(printf '0x%04x ' $(seq $((0x5810)) $((0x581f))))};"
grep -qxF "$want" "$w/rules.te" && echo "ok - read numbers only, shared numbers and other classes left out" ||
	echo "not ok - xperm rule: $(grep allowxperm "$w/rules.te")"
grep -q "define(\`x_ioctl_read_ioctls'" "$w/rules.te" && echo "ok - an m4 macro per handler" ||
	echo "not ok - no m4 macro"

if command -v checkpolicy > /dev/null; then
	grep '^allowxperm' "$w/rules.te" > "$w/allowxperm.te"
	if "$ANALYZER/tests/policy-compiles.sh" "$w/allowxperm.te" "$w"; then
		echo "ok - the allowxperm rule compiles with checkpolicy"
	else
		echo "not ok - checkpolicy: $(tail -2 "$w/checkpolicy.out")"
	fi
fi

"$scan" xperm "$r" --domain ro_t --type test_dev_t --cil | grep -q '^(allowx ro_t test_dev_t (ioctl chr_file (0x5802 0x5810' &&
	echo "ok - --cil gives an allowx rule" || echo "not ok - --cil"
"$scan" xperm "$r" --handler nosuch_ioctl > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && echo "ok - an unknown handler exits 2" || echo "not ok - unknown handler exit $rc"
