#!/bin/bash
# ioctl-scan xperm on a small report built for it (tests/fixtures/xperm):
# X_GET (read) shares its low 16 bits 0x5801 with X_SET (modify), so 0x5801
# must not be granted; X_INFO 0x5802 is; X_RESET (admin) and X_MAYBE
# (unknown) are not; the family X_GETBIT (mask 0xc000fff0) covers
# 0x5810-0x581f. Every form of the rules must compile: the allowxperm rule
# with checkpolicy inside the QEMU check's policy, the m4 macro expanded
# by m4 in a rule of that policy, the --cil allowx rule with secilc against
# a minimal CIL policy (fixtures/xperm/minimal.cil); each compiled policy,
# read back with checkpolicy, must grant exactly 0x5802 and 0x5810-0x581f.
# A missing checkpolicy, secilc or m4 fails, naming its package.
set -u
w=$WORK/xperm
rm -rf "$w"
mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
f=$ANALYZER/tests/fixtures/xperm
r=$f/report.json

# the fixture's read numbers, as the rules list them and as checkpolicy
# writes them back from a compiled policy (the family as a range)
nums="0x5802 $(printf '0x%04x ' $(seq $((0x5810)) $((0x581f))))"
want="allowxperm ro_t test_dev_t:chr_file ioctl { $nums};"
want_cil="(allowx ro_t test_dev_t (ioctl chr_file (${nums% })))"
want_bin="allowxperm ro_t test_dev_t:chr_file ioctl { 0x5802 0x5810-0x581f };"

. "$ANALYZER/tests/lib/checks.sh"
has_checkpolicy=0 has_secilc=0 has_m4=0
have checkpolicy checkpolicy && has_checkpolicy=1
have secilc secilc && has_secilc=1
have m4 m4 && has_m4=1

# in_policy RULE NAME: RULE compiles inside the QEMU check's policy, into
# $w/NAME/policy.bin (tests/lib/policy-compiles.sh)
in_policy() {
	mkdir -p "$w/$2" && echo "$1" > "$w/$2/rules.te" &&
		"$ANALYZER/tests/lib/policy-compiles.sh" "$w/$2/rules.te" "$w/$2"
}
# read_back BINARY: the allowxperm rules of a compiled policy
read_back() {
	checkpolicy -b -F -o "$1.conf" "$1" > "$1.read-back.out" 2>&1 && grep '^allowxperm' "$1.conf"
}
# compiled NAME BINARY: the compiled policy grants the fixture's numbers
compiled() {
	local got
	if [ $has_checkpolicy -eq 0 ]; then
		echo "not ok - $1: no checkpolicy to read the compiled policy back"
	elif ! got=$(read_back "$2"); then
		echo "not ok - $1: checkpolicy cannot read the compiled policy back: $(tail -1 "$2.read-back.out")"
	elif [ "$got" = "$want_bin" ]; then
		echo "ok - $1: the compiled policy grants 0x5802 and 0x5810-0x581f, nothing else"
	else
		echo "not ok - $1: the compiled policy grants '$got'"
	fi
}

if "$scan" xperm "$r" --domain ro_t --type test_dev_t > "$w/rules.te" 2> "$w/rules.err"; then
	echo "ok - xperm --domain --type exits 0"
else
	echo "not ok - xperm --domain --type: $(tail -1 "$w/rules.err")"
fi
grep -qxF "$want" "$w/rules.te" && echo "ok - read numbers only, shared numbers and other classes left out" ||
	echo "not ok - xperm rule: $(grep allowxperm "$w/rules.te")"
grep -q "define(\`x_ioctl_read_ioctls'" "$w/rules.te" && echo "ok - an m4 macro per handler" ||
	echo "not ok - no m4 macro"

# the allowxperm rule, in the QEMU check's policy
if [ $has_checkpolicy -eq 1 ]; then
	if in_policy "$(grep '^allowxperm' "$w/rules.te")" allowxperm; then
		echo "ok - the allowxperm rule compiles with checkpolicy"
		compiled allowxperm "$w/allowxperm/policy.bin"
	else
		echo "not ok - checkpolicy: $(tail -2 "$w/allowxperm/checkpolicy.out")"
	fi
fi

# the m4 macro, used in a rule of the same policy: the macros alone (no
# --domain), then a rule naming the handler's macro, expanded by m4
if [ $has_m4 -eq 1 ] && [ $has_checkpolicy -eq 1 ]; then
	"$scan" xperm "$r" > "$w/macros.m4"
	echo 'allowxperm ro_t test_dev_t:chr_file ioctl x_ioctl_read_ioctls;' > "$w/use.te"
	if m4 "$w/macros.m4" "$w/use.te" > "$w/expanded.te" 2> "$w/m4.err" &&
		rule=$(grep '^allowxperm' "$w/expanded.te") && ! grep -q x_ioctl_read_ioctls "$w/expanded.te"; then
		echo "ok - m4 expands x_ioctl_read_ioctls in a rule"
		if in_policy "$rule" m4; then
			echo "ok - the rule with the expanded macro compiles with checkpolicy"
			compiled "m4 macro" "$w/m4/policy.bin"
		else
			echo "not ok - checkpolicy on the expanded macro: $(tail -2 "$w/m4/checkpolicy.out")"
		fi
	else
		echo "not ok - m4 did not expand the macro: $(head -c 300 "$w/m4.err" "$w/expanded.te")"
	fi
fi

# the CIL rule, against the minimal CIL policy
"$scan" xperm "$r" --domain ro_t --type test_dev_t --cil > "$w/rules.cil"
grep -qxF "$want_cil" "$w/rules.cil" && echo "ok - --cil gives an allowx rule of the same numbers" ||
	echo "not ok - --cil: $(grep allowx "$w/rules.cil")"
if [ $has_secilc -eq 1 ]; then
	if secilc -o "$w/minimal.bin" -f /dev/null "$f/minimal.cil" > "$w/secilc-minimal.out" 2>&1; then
		echo "ok - the minimal CIL policy compiles with secilc"
	else
		echo "not ok - the minimal CIL policy: $(tail -2 "$w/secilc-minimal.out")"
	fi
	if secilc -o "$w/policy-cil.bin" -f /dev/null "$f/minimal.cil" "$w/rules.cil" > "$w/secilc.out" 2>&1; then
		echo "ok - the allowx rule compiles with secilc"
		compiled allowx "$w/policy-cil.bin"
	else
		echo "not ok - secilc: $(tail -2 "$w/secilc.out")"
	fi
	# the check can fail: a first number not masked to 16 bits
	sed 's/(ioctl chr_file (0x/(ioctl chr_file (0x1/' "$w/rules.cil" > "$w/broken.cil"
	if ! cmp -s "$w/rules.cil" "$w/broken.cil" &&
		! secilc -o "$w/broken.bin" -f /dev/null "$f/minimal.cil" "$w/broken.cil" > "$w/secilc-broken.out" 2>&1; then
		echo "ok - secilc rejects an allowx rule with a number wider than 16 bits"
	else
		echo "not ok - secilc accepts a broken allowx rule (or the rule was not broken)"
	fi
fi

"$scan" xperm "$r" --handler nosuch_ioctl > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && echo "ok - an unknown handler exits 2" || echo "not ok - unknown handler exit $rc"
