#!/bin/bash
# ioctl-scan facts on two fixtures of the miniature tree, switch.c and
# classes.c. Every expected line is read from the fixture source: the
# line numbers from where the statement is written, the case labels from
# the `case NAME:` lines in their order, the values from a probe compiled
# with the fixture's own macros (as check_fixtures does), the classes and
# evidence kinds from the fixture's check-output block. Then --command
# (class, path, evidence of one command, --handler narrowing it), and
# bad input: a missing file, an unknown command, a usage error. Then what
# the facts say of unread parameters (every_command.c) and of the
# extraction limits (drivers/extract_limits.c).
set -u
w=$WORK/facts
rm -rf "$w" && mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
t=$ANALYZER/tests/fixtures/tree
sw=$t/drivers/switch.c
cl=$t/drivers/classes.c
hr=$t/drivers/helper_result.c

. "$ANALYZER/tests/lib/checks.sh"
fixture_compile_db "$t" > "$w/compile_commands.json"
cp "$t/fixtures.config" "$w/.config"
facts() { "$scan" facts --compile-commands "$w/compile_commands.json" "$@"; }

# the values of the fixtures' macros and of the kernel names they use,
# NAME VALUE a line, VALUE as both facts (%#x) and the report (%#010x) print it
names="DEMO_RESET DEMO_GET DEMO_SET DEMO_SET_OLD CL_RESET CL_SETMAX CL_EXTERN HR_ARM"
{
	echo '#include <linux/fs.h>'
	echo '#include <stdio.h>'
	grep -h '^#define \(DEMO\|CL\|HR\)_' "$sw" "$cl" "$hr"
	echo 'int main(void) {'
	for n in $names ENOTTY EPERM ENOIOCTLCMD EFAULT CAP_SYS_RAWIO CAP_SYS_ADMIN; do
		echo "printf(\"$n %#x 0x%08x %d\\n\", (unsigned)($n), (unsigned)($n), (int)($n));"
	done
	echo 'return 0; }'
} > "$w/probe.c"
cc -I"$t/include" -o "$w/probe" "$w/probe.c" 2> "$w/probe.err" && "$w/probe" > "$w/values" ||
	echo "not ok - the value probe does not compile: $(head -1 "$w/probe.err")"
hex() { awk -v n="$1" '$1 == n { print $2 }' "$w/values"; }
hex8() { awk -v n="$1" '$1 == n { print $3 }' "$w/values"; }
dec() { awk -v n="$1" '$1 == n { print $4 }' "$w/values"; }
# at LINE DEPTH TEXT: a statement line as facts prints it
at() { printf '%5u %*s%s\n' "$1" $(($2 * 2)) "" "$3"; }
# the line of the source that contains TEXT (the first)
line_of() { grep -nF -- "$2" "$1" | head -1 | cut -d: -f1; }

# expect OUT NAME LINE...: each LINE is a whole line of OUT
expect() {
	local out=$1 name=$2 missing="" l
	shift 2
	for l in "$@"; do
		grep -qxF -- "$l" "$out" || missing+=" [$l]"
	done
	[ -z "$missing" ] && echo "ok - $name" || echo "not ok - $name: missing$missing"
}

facts "$t" drivers/switch.c > "$w/switch.out" 2> "$w/switch.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$w/switch.err" ] && echo "ok - facts on switch.c exits 0, nothing on stderr" ||
	echo "not ok - facts on switch.c: exit $rc, $(head -1 "$w/switch.err")"

# switch.c: demo_ioctl(file, cmd, arg) switches on cmd, parameter 1, and
# never reads file (unread p0)
expect "$w/switch.out" "switch.c: the handler's header and its switch on p1" \
	"function demo_ioctl(p0 file, p1 cmd, p2 arg) drivers/switch.c:$(line_of "$sw" 'static long demo_ioctl(') static unread p0" \
	"$(at "$(line_of "$sw" 'switch (cmd)')" 1 "switch p1")"
# every case label of the source, in its order, with its value, then default
grep -n '^	case [A-Z_]*:' "$sw" | sed 's/^\([0-9]*\):	case \([A-Z_]*\):.*/\1 \2/' |
	while read -r n name; do
		at "$n" 2 "case $name = $(hex "$name")"
	done > "$w/switch.cases"
at "$(line_of "$sw" 'default:')" 2 "default" >> "$w/switch.cases"
grep -E '^ +[0-9]+     (case|default)' "$w/switch.out" > "$w/switch.cases.out"
[ "$(wc -l < "$w/switch.cases")" -eq 5 ] && cmp -s "$w/switch.cases" "$w/switch.cases.out" &&
	echo "ok - switch.c: the four case labels in source order with their values, then default" ||
	echo "not ok - switch.c: case labels differ: $(diff "$w/switch.cases" "$w/switch.cases.out" | head -4 | tr '\n' ' ')"
# demo_value is a static of the file: a store to it is nonlocal
expect "$w/switch.out" "switch.c: stores to the file-scope demo_value are nonlocal, returns with their values" \
	"$(at "$(line_of "$sw" 'demo_value = 0;')" 3 "store demo_value nonlocal = 0")" \
	"$(at "$(line_of "$sw" 'demo_value = v;')" 3 "store demo_value nonlocal")" \
	"$(at "$(line_of "$sw" 'return -ENOTTY;')" 3 "return -$(dec ENOTTY)")" \
	"ops file_operations.unlocked_ioctl = demo_ioctl var demo_fops drivers/switch.c:$(line_of "$sw" '.unlocked_ioctl	= demo_ioctl')"

facts "$t" drivers/classes.c > "$w/classes.out" 2> "$w/classes.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$w/classes.err" ] && echo "ok - facts on classes.c exits 0, nothing on stderr" ||
	echo "not ok - facts on classes.c: exit $rc, $(head -1 "$w/classes.err")"
# cl_admin_ioctl's prologue: if (!capable(CAP_SYS_RAWIO)) return -EPERM;
p=$(line_of "$cl" 'if (!capable(CAP_SYS_RAWIO))')
expect "$w/classes.out" "classes.c: the prologue's negated call to capable with its capability" \
	"$(at "$p" 1 "if !call")" \
	"$(at "$p" 2 "call capable(CAP_SYS_RAWIO=$(dec CAP_SYS_RAWIO)) negated")" \
	"$(at $((p + 1)) 2 "then")" \
	"$(at $((p + 1)) 3 "return -$(dec EPERM)")"
expect "$w/classes.out" "classes.c: the wrapper cl_may_admin returns capable(CAP_SYS_ADMIN)" \
	"function cl_may_admin() drivers/classes.c:$(line_of "$cl" 'static int cl_may_admin(') static" \
	"$(at "$(line_of "$cl" 'return capable(CAP_SYS_ADMIN);')" 1 "call capable(CAP_SYS_ADMIN=$(dec CAP_SYS_ADMIN))")" \
	"$(at "$(line_of "$cl" 'return capable(CAP_SYS_ADMIN);')" 1 "return call from capable()")"
expect "$w/classes.out" "classes.c: stores through a parameter and to a static are nonlocal" \
	"function cl_fill(p0 info) drivers/classes.c:$(line_of "$cl" 'static void cl_fill(') static" \
	"$(at "$(line_of "$cl" 'info->a = cl_device.max;')" 1 "store info->a nonlocal through p0")" \
	"$(at "$(line_of "$cl" 'file->private_data = NULL;')" 3 "store file->private_data nonlocal through p0 = 0")" \
	"$(at "$(line_of "$cl" 'cl_device.state = 0;')" 3 "store cl_device.state nonlocal = 0")"
expect "$w/classes.out" "classes.c: a call with a literal argument, two ops initialisers" \
	"$(at "$(line_of "$cl" 'return cl_firmware_call(3);')" 3 "call cl_firmware_call(3)")" \
	"ops file_operations.unlocked_ioctl = cl_admin_ioctl var cl_admin_fops drivers/classes.c:$(line_of "$cl" '.unlocked_ioctl	= cl_admin_ioctl')" \
	"ops file_operations.unlocked_ioctl = cl_ioctl var cl_fops drivers/classes.c:$(line_of "$cl" '.unlocked_ioctl	= cl_ioctl')"
facts "$t" drivers/classes.c > "$w/classes.again" 2>&1
cmp -s "$w/classes.out" "$w/classes.again" && echo "ok - classes.c: the same output twice" ||
	echo "not ok - classes.c: two runs differ"

# --command: what the scan of the file decided (the fixture's check-output)
cmd_line() { # NAME HANDLER: the command line, at the NAME's case label
	echo "command $1 = $(hex8 "$1") mask 0xffffffff handler $2 unlocked_ioctl drivers/classes.c:$(line_of "$cl" "case $1:")"
}
facts --command CL_SETMAX "$t" drivers/classes.c > "$w/setmax.out" 2> "$w/setmax.err"
rc=$?
expect "$w/setmax.out" "--command CL_SETMAX (exit $rc): modify on the store, the capability conditional" \
	"$(cmd_line CL_SETMAX cl_ioctl)" \
	"  class modify confidence high" \
	"  path cl_ioctl" \
	"  conditional_capability CAP_SYS_RESOURCE"
grep -q "^  evidence store drivers/classes.c:$(line_of "$cl" 'dev->max = v;') " "$w/setmax.out" &&
	grep -q "^  evidence conditional_capability drivers/classes.c:$(line_of "$cl" '!capable(CAP_SYS_RESOURCE)') " "$w/setmax.out" &&
	echo "ok - --command CL_SETMAX: the store and the conditional check, at their lines" ||
	echo "not ok - --command CL_SETMAX: evidence: $(grep evidence "$w/setmax.out" | tr '\n' ' ')"
facts --command CL_EXTERN "$t" drivers/classes.c > "$w/extern.out" 2>&1
expect "$w/extern.out" "--command CL_EXTERN: unknown, low confidence, on the unanalysed call" \
	"$(cmd_line CL_EXTERN cl_ioctl)" "  class unknown confidence low"
grep -q "^  evidence unanalysed_call drivers/classes.c:$(line_of "$cl" 'return cl_firmware_call(3);') " "$w/extern.out" &&
	echo "ok - --command CL_EXTERN: unanalysed_call at the call" ||
	echo "not ok - --command CL_EXTERN: $(grep evidence "$w/extern.out")"
# CL_RESET is only cl_admin_ioctl's: admin by its prologue
facts --command CL_RESET --handler cl_admin_ioctl "$t" drivers/classes.c > "$w/reset.out" 2>&1
expect "$w/reset.out" "--command CL_RESET --handler cl_admin_ioctl: admin by the prologue's capability" \
	"$(cmd_line CL_RESET cl_admin_ioctl)" "  class admin confidence high" "  path cl_admin_ioctl" \
	"  capability CAP_SYS_RAWIO"
[ "$(grep -c '^command ' "$w/reset.out")" -eq 1 ] &&
	grep -q "^  evidence capability_check drivers/classes.c:$p " "$w/reset.out" &&
	echo "ok - --command CL_RESET: one command, capability_check at the prologue" ||
	echo "not ok - --command CL_RESET: $(grep -c '^command ' "$w/reset.out") commands, $(grep evidence "$w/reset.out")"

# helper_result.c: what a stored or returned value is, and an if's test
# of a local (the key is the local's name and the line it is declared on)
facts "$t" drivers/helper_result.c > "$w/result.out" 2>&1
d=$(line_of "$hr" 'int ret = hr_common(')
i=$(line_of "$hr" 'if (ret != -ENOIOCTLCMD)')
expect "$w/result.out" "helper_result.c: a local from a call, its test, its return" \
	"$(at "$d" 1 "store ret local flag ret@$d from hr_common()")" \
	"$(at "$i" 1 "if other local ret@$d != -$(dec ENOIOCTLCMD)")" \
	"$(at $((i + 1)) 3 "return local ret@$d")" \
	"$(at "$(line_of "$hr" '? -EFAULT : 0;')" 3 "return call either -$(dec EFAULT) or 0")" \
	"$(at "$(line_of "$hr" 'return hr_level(d);')" 3 "return call from hr_level()")"
facts --command HR_ARM --handler hr_ioctl "$t" drivers/helper_result.c > "$w/arm.out" 2>&1
expect "$w/arm.out" "--command HR_ARM: modify, the caller's store after the helper returned 0" \
	"  class modify confidence high"
grep -q "^  evidence store drivers/helper_result.c:$(line_of "$hr" 'hr_dev.armed = 1;') " "$w/arm.out" &&
	echo "ok - --command HR_ARM: the store in hr_ioctl after the call, at its line" ||
	echo "not ok - --command HR_ARM: $(grep evidence "$w/arm.out" | tr '\n' ' ')"

# what the facts keep of the parameters: those a body never mentions
# (every_command.c: ec_msg_ioctl never reads cmd; ec_logged_ioctl prints it)
facts "$t" drivers/every_command.c > "$w/every.out" 2>&1
grep -q "^function ec_msg_ioctl(p0 file, p1 cmd, p2 arg) .* unread p1\b" "$w/every.out" &&
	! grep -q "^function ec_logged_ioctl(.* unread p1\b" "$w/every.out" &&
	echo "ok - every_command.c: a parameter the body never reads is marked unread, one it prints is not" ||
	echo "not ok - every_command.c: $(grep '^function' "$w/every.out" | tr '\n' ' ')"
# an extraction limit that cuts data leaves a diagnostic naming the function
facts "$t" drivers/extract_limits.c > "$w/limits.out" 2>&1
grep -q "^diagnostic warning el_seventeen: extraction limit: more than 16 parameters" "$w/limits.out" &&
	grep -q "^diagnostic warning el_nine: extraction limit: a condition has more than 8 negated calls" \
		"$w/limits.out" &&
	echo "ok - extract_limits.c: a 17th parameter and a ninth negated call each leave a diagnostic" ||
	echo "not ok - extract_limits.c: $(grep '^diagnostic' "$w/limits.out" | tr '\n' ' ')"

# bad input: a one-line error, the exit status, nothing on standard output
bad() { # STATUS NAME ARGS...
	local want=$1 name=$2 rc
	shift 2
	"$@" > "$w/bad.out" 2> "$w/bad.err"
	rc=$?
	[ $rc -eq "$want" ] && [ ! -s "$w/bad.out" ] && [ "$(wc -l < "$w/bad.err")" -eq 1 ] &&
		echo "ok - $name: exit $want, one line on stderr, no output" ||
		echo "not ok - $name: exit $rc (want $want), $(wc -c < "$w/bad.out") bytes out, $(wc -l < "$w/bad.err") lines on stderr"
}
bad 2 "a missing file" facts "$t" drivers/no_such_file.c
bad 2 "--command on a missing file" facts --command CL_RESET "$t" drivers/no_such_file.c
bad 1 "a command the handler does not have" facts --command CL_RESET --handler cl_ioctl "$t" drivers/classes.c
bad 2 "no FILE" facts "$t"
bad 2 "--handler without --command" facts --handler cl_ioctl "$t" drivers/classes.c
exit 0
