#!/bin/bash
# policy-compiles.sh RULES DIR: whether the SELinux rules in the file RULES
# compile inside the QEMU check's policy (qemu-check/policy/ioctl-check.conf),
# for the tests of the subcommands that suggest rules. Writes
# DIR/policy.conf, DIR/policy.bin and checkpolicy's output to
# DIR/checkpolicy.out; exits with checkpolicy's status.
set -u
rules=$1 dir=$2
root=$(cd "$(dirname "$0")/../../.." && pwd)
# allow rules must come before the user and sid statements: insert the
# rules after the policy's last allow rule
awk -v rules="$(cat "$rules")" '
	{ lines[NR] = $0; if ($0 ~ /^allow /) last = NR }
	END { for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) print rules } }' \
	"$root/qemu-check/policy/ioctl-check.conf" > "$dir/policy.conf"
checkpolicy -U allow -c 33 -o "$dir/policy.bin" "$dir/policy.conf" > "$dir/checkpolicy.out" 2>&1
