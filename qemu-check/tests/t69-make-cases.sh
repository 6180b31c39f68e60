#!/bin/bash
# The QEMU cases' classes are hand-checked (qemu-check/cases.conf): every
# command names the class a person read in the driver source, with the line
# that decides it, and make_cases (qemu-check/host/make_cases.c) fails when
# the report the table is generated from says otherwise. Here, without a
# kernel build: the installed release's report agrees with cases.conf, every
# case cites a line for both series (a line of that series' tree, where it
# is extracted), and a scratch copy of cases.conf with
# a wrong class (also for a posix clock driver's command and for one the
# table merges under v4l2_ioctl), a wrong capability, a capability checked in the wrong
# user namespace, a class for a value nothing serves, no
# class, a line that does not exist, no line for this release, or too few
# commands per class makes make_cases exit non-zero with a message naming
# the command, both classes and the line. t70 then boots the cases
# make_cases writes.
set -u
. "$ANALYZER/tests/lib/generated.sh"
w=$WORK/make-cases
rm -rf "$w" && mkdir -p "$w"
conf=$ROOT/qemu-check/cases.conf
rel=$(release_of "$KSRC")
series=$(cut -d. -f1-2 <<<"$rel")
gen=$(generated_set "$rel")
if [ ! -f "$gen/report.json" ]; then
	echo "not ok - no generated set for $rel (t15 makes one)"
	exit 1
fi
if ! gcc -O2 -Wall -Wextra -Werror -o "$w/make_cases" "$ROOT/qemu-check/host/make_cases.c" \
	-ljansson 2> "$w/cc.err"; then
	echo "not ok - make_cases does not build without warnings: $(head -c 300 "$w/cc.err")"
	exit 1
fi

# the committed list against the report of the installed release
if "$w/make_cases" "$gen/report.json" "$conf" "$KSRC" > "$w/cases" 2> "$w/err"; then
	echo "ok - $rel: $(sed -n 's/^make_cases: \([0-9]*\) commands.*/\1/p' "$w/err") commands of cases.conf: the report's class is the hand-checked one, every cited line is in the tree"
else
	echo "not ok - $rel: make_cases refuses cases.conf: $(grep -v '^make_cases: [0-9]* commands\|^make_cases: read ' "$w/err" | paste -sd' ')"
fi

# every case and bench line: a class and a line for 6.1 and for 6.12
missing=$(awk '$1 == "case" || $1 == "compat" || $1 == "userns" || $1 == "bench" {
		any = 0; r61 = 0; r612 = 0
		for (i = 6; i <= NF && $i != "--"; i++) {
			if ($i ~ /^6\.1=/) r61 = 1
			else if ($i ~ /^6\.12=/) r612 = 1
			else if ($i !~ /=/) any = 1
		}
		if (NF < 6 || !(any || (r61 && r612))) print $4
	}' "$conf")
if [ -z "$missing" ]; then
	echo "ok - every case of cases.conf has a hand-checked class and a line for 6.1 and 6.12"
else
	echo "not ok - cases.conf cases without a class or a line for both series: $missing"
fi

# the lines cited for each series exist in that series' tree, where it is
# extracted (make_cases reads only the report's release)
for s in 6.1 6.12; do
	tree=${BUILD:-$ROOT/build}/linux-source-$s
	if [ ! -f "$tree/Makefile" ]; then
		echo "# no $tree: the lines cited for $s are not looked up"
		continue
	fi
	bad=$(awk -v s="$s" '$1 == "case" || $1 == "compat" || $1 == "userns" || $1 == "bench" {
			mine = ""; any = ""
			for (i = 6; i <= NF && $i != "--"; i++)
				if (index($i, s "=") == 1)
					mine = substr($i, length(s) + 2)
				else if ($i !~ /=/)
					any = $i
			print $4, (mine != "" ? mine : any)
		}' "$conf" | while read -r cmd where; do
			f=${where%:*} n=${where##*:}
			[ -n "$(sed -n "${n}p" "$tree/$f" 2> /dev/null)" ] || echo "$cmd $where"
		done)
	if [ -z "$bad" ]; then
		echo "ok - every line cases.conf cites for $s is a line of $tree"
	else
		echo "not ok - lines cases.conf cites for $s that $tree does not have: $(paste -sd, <<<"$bad")"
	fi
done

# mutant NAME SED-SCRIPT PATTERN...: make_cases on a scratch copy of
# cases.conf changed by SED-SCRIPT must exit non-zero with every PATTERN
# (fixed strings) in its messages
mutant() {
	local name=$1 script=$2 p rc
	shift 2
	sed "$script" "$conf" > "$w/$name.conf"
	if cmp -s "$conf" "$w/$name.conf"; then
		echo "not ok - mutant $name: the edit changed nothing in cases.conf"
		return
	fi
	"$w/make_cases" "$gen/report.json" "$w/$name.conf" "$KSRC" > /dev/null 2> "$w/$name.err"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "not ok - mutant $name: make_cases accepted it"
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" "$w/$name.err"; then
			echo "not ok - mutant $name: make_cases exited $rc but did not say \"$p\": $(head -c 400 "$w/$name.err")"
			return
		fi
	done
	echo "ok - mutant $name: make_cases exits $rc: $(grep -m1 -F -- "$1" "$w/$name.err" | head -c 300)"
}

mutant wrong-class '/ RTC_RD_TIME read /s/ read / modify /' \
	"case RTC_RD_TIME (rtc_dev_ioctl): the report says read, the hand-checked class is modify (drivers/rtc/dev.c:327" \
	'copy_to_user(uarg, &tm, sizeof(tm))'
mutant read-for-admin '/ RNDZAPENTCNT admin:CAP_SYS_ADMIN /s/ admin:CAP_SYS_ADMIN / read /' \
	"case RNDZAPENTCNT (random_ioctl): the report says admin CAP_SYS_ADMIN, the hand-checked class is read"
mutant wrong-capability '/ RTC_SET_TIME admin:CAP_SYS_TIME /s/CAP_SYS_TIME /CAP_SYS_ADMIN /' \
	"case RTC_SET_TIME (rtc_dev_ioctl): the report says admin CAP_SYS_TIME, the hand-checked class is admin CAP_SYS_ADMIN (drivers/rtc/dev.c:226"
mutant user-ns-for-initial '/^userns .* RNDADDTOENTCNT /s/admin:CAP_SYS_ADMIN /admin:CAP_SYS_ADMIN:user_ns /' \
	"userns RNDADDTOENTCNT (random_ioctl): the report says admin CAP_SYS_ADMIN, the hand-checked class is admin CAP_SYS_ADMIN in a user namespace"
mutant initial-for-user-ns '/^userns .* FIFREEZE /s/:user_ns / /' \
	"userns FIFREEZE (do_vfs_ioctl): the report says admin CAP_SYS_ADMIN in a user namespace, the hand-checked class is admin CAP_SYS_ADMIN ("
mutant no-such-namespace '/^userns .* FIFREEZE /s/:user_ns /:userns /' \
	'FIFREEZE: "admin:CAP_SYS_ADMIN:userns": a capability is checked in the initial namespace'
mutant compat-wrong-class '/^compat .* LOOP_SET_CAPACITY modify /s/ modify / read /' \
	"compat LOOP_SET_CAPACITY (lo_compat_ioctl): the report says modify, the hand-checked class is read"
mutant merged-wrong-class '/ VIDIOC_S_INPUT modify /s/ modify / read /' \
	"case VIDIOC_S_INPUT (v4l2_ioctl): the report says modify, the hand-checked class is read"
mutant clock-driver-wrong-class '/ PTP_ENABLE_PPS admin:CAP_SYS_TIME /s/ admin:CAP_SYS_TIME / read /' \
	"case PTP_ENABLE_PPS (ptp_ioctl): the report says admin CAP_SYS_TIME, the hand-checked class is read"
mutant read-for-unserved '/ 0x7000ffff none /s/ none / read /' \
	"case 0x7000ffff (-): the report says none (no handler of the chain serves it), the hand-checked class is read (drivers/rtc/dev.c:457"
mutant no-class '/ TIOCGPTN read /s/ read .*//' \
	'want case DEVICE HANDLER COMMAND CLASS FILE:LINE'
mutant no-such-line '/ RTC_IRQP_READ read /s/dev\.c:367/dev.c:99999/' \
	"RTC_IRQP_READ: drivers/rtc/dev.c:99999 is not a line of"
mutant no-line-for-release "/ BLKROGET read /s/ $series=[^ ]*//" \
	"BLKROGET: no FILE:LINE for Linux $series"
mutant too-few-admin '/ admin:CAP_/{/RTC_SET_TIME/!d}' \
	'does not cover two commands per class from three drivers'
