#!/bin/bash
# The QEMU check: build the patched kernel, an initramfs with the test
# program and the policy, boot it, and turn the serial log into results.
#
# usage: qemu-check/run.sh [VARIANT...]
#   VARIANT  semantics (default): CONFIG_SECURITY_SELINUX_IOCTL_SEMANTICS=y
#            plain: the same patched tree built without the option
# Environment (the top-level Makefile sets these):
#   KVER      kernel series (6.1)          QBUILD  build directory
#   REPORT    generated report (JSON)      SERIES  patch series directory
#   KTAR      linux-source tarball         JOBS    make -j
#   ACCEL     auto (default), kvm or tcg   QEMU_TIMEOUT  seconds (600)
# Prints the guest's "ok - ..." / "not ok - ..." lines and a last line
# "N passed, N failed"; exits non-zero on any failure, panic, oops, BUG,
# WARNING or timeout (the log is shown).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${KVER:=6.1}" "${QBUILD:=$root/build/qemu-$KVER}" "${JOBS:=$(nproc)}"
: "${KTAR:=/usr/src/linux-source-$KVER.tar.xz}" "${ACCEL:=auto}" "${QEMU_TIMEOUT:=600}"
: "${REPORT:?REPORT (the generated report) must be set}" "${SERIES:?SERIES must be set}"
variants=("${@:-semantics}")
src=$QBUILD/linux-source-$KVER
log() { echo "qemu-check: $*" >&2; }
fail() { echo "not ok - $*"; echo "0 passed, 1 failed"; exit 1; }

mkdir -p "$QBUILD"

# 1. a pristine tree with the series applied; a changed series is swapped
#    in by reversing the old one (its patches last to first: later patches
#    may change what earlier ones added), so make rebuilds only what changed
# (a single-file series.applied is the old record, which cannot be reversed)
[ -f "$QBUILD/series.applied" ] && rm -f "$src/.qemu-check-extracted"
if [ ! -f "$src/.qemu-check-extracted" ]; then
	log "extracting $KTAR"
	rm -rf "$src" "$QBUILD/series.applied"
	tar -C "$QBUILD" -xf "$KTAR" || fail "cannot extract $KTAR"
	touch "$src/.qemu-check-extracted"
fi
if ! diff -rq "$SERIES" "$QBUILD/series.applied" >/dev/null 2>&1; then
	if [ -d "$QBUILD/series.applied" ]; then
		for p in $(ls -r "$QBUILD"/series.applied/*.patch); do
			patch -s -R -p1 -d "$src" < "$p" || {
				# a tree in between: start again from the tarball
				rm -f "$src/.qemu-check-extracted"
				fail "cannot reverse the old series ($p); the next run extracts the tree again"
			}
		done
	fi
	rm -rf "$QBUILD/series.applied"
	for p in "$SERIES"/*.patch; do
		patch -s -p1 -d "$src" < "$p" || {
			rm -f "$src/.qemu-check-extracted"
			fail "$(basename "$p") does not apply to $KTAR"
		}
	done
	rm -rf "$QBUILD/series.applied.tmp"
	cp -r "$SERIES" "$QBUILD/series.applied.tmp"
	mv "$QBUILD/series.applied.tmp" "$QBUILD/series.applied"
fi

# 2. the kernels, with gcc (and ccache when it is there)
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_DIR=$QBUILD/ccache
build_kernel() {
	local variant=$1 obj=$QBUILD/obj-$1 frag=$QBUILD/$1.config
	if [ "$variant" = plain ]; then
		grep -v IOCTL_SEMANTICS "$here/kernel.config" > "$frag.new"
	else
		cp "$here/kernel.config" "$frag.new"
	fi
	mkdir -p "$obj"
	if ! cmp -s "$frag.new" "$frag" || [ ! -f "$obj/.config" ]; then
		make -s -C "$src" O="$obj" CC="$cc" KCONFIG_ALLCONFIG="$frag.new" allnoconfig >/dev/null ||
			fail "configuring $variant"
		mv "$frag.new" "$frag"
	fi
	# every symbol of the fragment must have survived the dependencies
	while IFS= read -r l; do
		case "$l" in CONFIG_*) grep -qx -- "$l" "$obj/.config" ||
			fail "$variant config lost $l (a dependency is missing)";; esac
	done < "$frag"
	log "building the $variant kernel (make -j$JOBS bzImage modules)"
	local start=$SECONDS
	make -s -C "$src" O="$obj" CC="$cc" -j"$JOBS" bzImage modules > "$obj/build.log" 2>&1 ||
		{ tail -30 "$obj/build.log"; fail "building the $variant kernel"; }
	log "$variant kernel built in $((SECONDS - start)) s"
}

# 2b. what the series adds must build with W=1 and be sparse-clean (C=2
#     runs sparse on every file of the directory): a warning counts when it
#     is in a file the series adds or on a line it adds to an existing file
#     (pristine lines, from the analysis tree, may have warnings of their own)
check_build() {
	local obj=$QBUILD/obj-semantics out=$QBUILD/obj-semantics/w1-sparse.log
	local pristine=${PRISTINE:-$root/build/linux-source-$KVER} added f n=0
	# make names files by the real path, build/ may be a symlink
	local real_src
	real_src=$(realpath "$src")
	make -s -C "$src" O="$obj" CC="$cc" W=1 C=2 security/selinux/ > "$out" 2>&1 ||
		{ tail -20 "$out"; echo "not ok - W=1 C=2 build of security/selinux/ failed"; return; }
	while IFS= read -r w; do
		f=${w%%:*}; f=${f#"$real_src"/}; f=${f#"$src"/}
		local line=${w#*:}; line=${line%%:*}
		if [ ! -f "$pristine/$f" ]; then
			added=1
		else
			added=$(diff --unchanged-line-format= --old-line-format= \
				--new-line-format='%dn
' "$pristine/$f" "$src/$f" | grep -cx "$line")
		fi
		if [ "$added" -gt 0 ]; then
			echo "# $w"
			n=$((n + 1))
		fi
	done < <(grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error)' "$out" | grep 'security/selinux/')
	if [ $n -eq 0 ]; then
		echo "ok - security/selinux/ builds with W=1 and sparse (C=2) with no warning in what the series adds ($(grep -c 'warning' "$out") in pristine code)"
	else
		echo "not ok - $n W=1/sparse warnings in what the series adds"
	fi
}

# 3. the guest: test program, cases (values from the report, classes
#    hand-checked), policy, initramfs
guest() {
	local variant=$1 g=$QBUILD/guest
	rm -rf "$g" && mkdir -p "$g/rootfs/bin" "$g/rootfs/dev" "$g/rootfs/sys/fs/selinux"
	gcc -static -O2 -Wall -Wextra -o "$g/rootfs/init" "$here/guest/ioctl_check.c" ||
		fail "building the guest program"
	gcc -O2 -Wall -Wextra -o "$g/make_cases" "$here/host/make_cases.c" -ljansson ||
		fail "building make_cases"
	# the report's class of every command must be the hand-checked one of
	# cases.conf (whose cited lines are read in the tree being booted)
	if ! "$g/make_cases" "$REPORT" "$here/cases.conf" "$src" > "$g/rootfs/cases" \
		2> "$g/make_cases.err"; then
		cat "$g/make_cases.err" >&2
		fail "make_cases: $(grep -v '^make_cases: [0-9]* commands\|^make_cases: read ' \
			"$g/make_cases.err" | sed 's/^make_cases: //' | paste -sd'|' | sed 's/|/ | /g')"
	fi
	echo "ok - the report's classes are the hand-checked classes of cases.conf:$(sed -n \
		's/^make_cases: \([0-9]*\) commands.*/ \1 commands/p' "$g/make_cases.err")"
	checkpolicy -U allow -c 33 -o "$g/rootfs/policy-nocap.bin" "$here/policy/ioctl-check.conf" \
		>/dev/null || fail "compiling the policy"
	# the same policy declaring ioctl_semantics, which checkpolicy does not
	# know by name yet: set by number (host/set_policycap.c), checked first
	# against checkpolicy's own output for a capability it knows
	gcc -O2 -Wall -Wextra -o "$g/set_policycap" "$here/host/set_policycap.c" ||
		fail "building set_policycap"
	local known semantics
	known=$(policycap_number ioctl_skip_cloexec) ||
		fail "ioctl_skip_cloexec not in the patched tree's policycap_names.h"
	semantics=$(policycap_number ioctl_semantics) ||
		fail "ioctl_semantics not in the patched tree's policycap_names.h"
	awk '/^type / && !d { print "policycap ioctl_skip_cloexec;"; d = 1 } { print }' \
		"$here/policy/ioctl-check.conf" > "$g/known.conf"
	checkpolicy -U allow -c 33 -o "$g/known.bin" "$g/known.conf" >/dev/null &&
		"$g/set_policycap" "$g/rootfs/policy-nocap.bin" "$known" "$g/known-set.bin" &&
		cmp -s "$g/known.bin" "$g/known-set.bin" ||
		fail "set_policycap does not declare a capability as checkpolicy does"
	echo "ok - set_policycap declares ioctl_skip_cloexec ($known) byte for byte as checkpolicy does"
	"$g/set_policycap" "$g/rootfs/policy-nocap.bin" "$semantics" "$g/rootfs/policy.bin" ||
		fail "declaring ioctl_semantics ($semantics)"
	cp /bin/busybox "$g/rootfs/bin/busybox"
	# the loop driver, a module the guest loads (and reloads) after boot;
	# the drivers of the other devices, each after the modules it needs
	# (modinfo's depends=), in /modules's order: vgem (DRM), e1000e (its
	# PTP clock is /dev/ptp0), vivid (V4L2)
	cp "$QBUILD/obj-$variant/drivers/block/loop.ko" "$g/rootfs/loop.ko" ||
		fail "no loop.ko in the $variant build"
	find "$QBUILD/obj-$variant" -name '*.ko' > "$g/modules.found"
	listed=" "
	local m
	for m in vgem e1000e vivid; do
		list_module "$variant" "$m" || fail "no $m.ko (or a module it needs) in the $variant build"
	done
	mknod "$g/rootfs/dev/console" c 5 1 || fail "mknod /dev/console (run as root)"
	(cd "$g/rootfs" && find . | sort | cpio -o -H newc -R 0:0 --quiet) > "$g/initramfs.cpio" ||
		fail "packing the initramfs"
	gzip -9n < "$g/initramfs.cpio" > "$g/initramfs.gz"
}

# Lists module $2 of variant $1 in the guest's /modules after the modules
# it depends on; $listed holds the names already listed.
list_module() {
	local variant=$1 name=$2 ko dep g=$QBUILD/guest
	case "$listed" in *" $name "*) return 0 ;; esac
	ko=$(grep -E "/(${name//[-_]/[-_]})\.ko$" "$g/modules.found" | head -1)
	[ -n "$ko" ] || return 1
	for dep in $(modinfo -F depends "$ko" | tr , ' '); do
		list_module "$variant" "$dep" || return 1
	done
	cp "$ko" "$g/rootfs/" && echo "/$(basename "$ko")" >> "$g/rootfs/modules" || return 1
	listed="$listed$name "
}

# The number of a policy capability: its position in the patched tree's
# selinux_policycap_names[].
policycap_number() {
	awk -v want="\"$1\"" '
		/selinux_policycap_names\[/ { on = 1; next }
		on && /^}/ { exit }
		on { gsub(/[ \t,]/, ""); if ($0 ~ /^"/) { if ($0 == want) { print n; found = 1; exit } n++ } }
		END { exit !found }' "$src/security/selinux/include/policycap_names.h"
}

qemu_accel() {
	[ "$ACCEL" != auto ] && { echo "$ACCEL"; return; }
	# a usable /dev/kvm is not a working KVM: boot briefly and look
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		timeout 20 qemu-system-x86_64 -enable-kvm -cpu host -m 256M -nographic -no-reboot \
			-kernel "$1" -append "console=ttyS0 rdinit=/nonexistent panic=-1" \
			2>/dev/null | grep -q "Run /nonexistent\|Kernel panic" && { echo kvm; return; }
	fi
	echo tcg
}

boot() {
	local variant=$1 kernel=$QBUILD/obj-$1/arch/x86/boot/bzImage out=$QBUILD/boot-$1.log
	local accel start
	accel=$(qemu_accel "$kernel")
	local opts=(-machine accel=tcg -cpu max)
	[ "$accel" = kvm ] && opts=(-enable-kvm -cpu host)
	log "booting the $variant kernel ($accel)"
	start=$SECONDS
	# an e1000e NIC for its PTP clock, on an isolated user-mode network
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 "${opts[@]}" -m 512M -smp 1 -nographic -no-reboot \
		-nic none -netdev user,id=n0,restrict=on -device e1000e,netdev=n0 \
		-kernel "$kernel" -initrd "$QBUILD/guest/initramfs.gz" \
		-append "console=ttyS0 loglevel=5 panic=-1 selinux=1 enforcing=0 audit_backlog_limit=8192" \
		< /dev/null > "$out" 2>&1
	local rc=$?
	tr -d '\r' < "$out" > "$out.txt"
	log "$variant guest ran for $((SECONDS - start)) s (qemu status $rc)"
	grep -E '^(ok|not ok) - |^(bench|stats|record): ' "$out.txt" | sed "s/^\(not \)\{0,1\}ok - /&$variant: /"
	if [ $rc -eq 124 ]; then
		echo "not ok - $variant: the guest did not finish within $QEMU_TIMEOUT s"
		tail -40 "$out.txt" >&2
		return 1
	fi
	if grep -nE 'Oops|BUG:|WARNING:|Kernel panic|general protection|UBSAN|KASAN|Call Trace' "$out.txt" >&2; then
		echo "not ok - $variant: the kernel log shows a panic, oops, BUG or WARNING"
		cat "$out.txt" >&2
		return 1
	fi
	if ! grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$out.txt"; then
		echo "not ok - $variant: the guest printed no result line"
		tail -40 "$out.txt" >&2
		return 1
	fi
	grep -qE '^[0-9]+ passed, 0 failed$' "$out.txt" || rc=1
	echo "ok - $variant: guest finished cleanly, no oops or warning in the log"
	[ $rc -eq 0 ]
}

status=0
for v in "${variants[@]}"; do
	build_kernel "$v"
	[ "$v" = semantics ] && check_build
	guest "$v"
	boot "$v" || status=1
done
exit $status
