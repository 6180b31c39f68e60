#!/bin/bash
# ioctl-scan table on a small report built for it (tests/fixtures/table):
# the generated table is compiled with the kernel's own linux/kconfig.h
# under a configuration (FIX_MOD=m, FIX_OTHER=y, TWIN_A=m, TWIN_B=y,
# FIX_ABSENT unset) and each handler's link is printed as the kernel would
# see it: a module's handler is a module's, a built-in one built in, two
# objects of one name stay apart, an object two options build is built in
# when either builds it in, one built whenever the kernel is is built in,
# one the configuration does not build is neither. A handler not bound to
# one object is left to the fallback. A socket kind (proto_ops.ioctl) has
# its own entry but is not in the fallback; sock_ioctl's commands that reach
# dev_ioctl are listed under sock_do_ioctl, the others under sock_ioctl. A
# DRM driver's table (drm_driver.ioctls) lists each command under its
# entry's function, in the table's object, when that function is linked
# into it (the report's entry_objects), and none in the fallback; an entry
# naming another object's function (drm_noop) is nowhere in the table. A
# handler with no command of its own is in the table, with no entries; a
# posix clock driver's (posix_clock_operations.ioctl) has its own entries,
# none in the fallback. The commands of a kind whose handler the kernel
# cannot tell from the file (v4l2_file_operations.unlocked_ioctl) are
# listed under the core's handler that calls it (v4l2_ioctl), merged. A
# kind the kernel's lookup does not reach is nowhere in the table. A
# handler's `*` (every command alike, mask 0) is in its own slice, never in
# the fallback.
set -u
w=$WORK/table
rm -rf "$w" && mkdir -p "$w/inc/generated" "$w/inc/linux"
scan=$ANALYZER/ioctl-scan
r=$ANALYZER/tests/fixtures/table/report.json

if ! "$scan" table "$r" -o "$w/table.c" > "$w/table.out" 2> "$w/table.err"; then
	echo "not ok - table exits non-zero: $(tail -1 "$w/table.err")"
	exit 1
fi
echo "ok - table writes the table"

# the configuration, as Kconfig writes it
printf '#define CONFIG_FIX_MOD_MODULE 1\n#define CONFIG_FIX_OTHER 1\n#define CONFIG_TWIN_A_MODULE 1\n#define CONFIG_TWIN_B 1\n' \
	> "$w/inc/generated/autoconf.h"
cp "$KSRC/include/linux/kconfig.h" "$w/inc/linux/kconfig.h"
# what the table includes, reduced to what it uses
for h in cache capability kernel; do : > "$w/inc/linux/$h.h"; done
cat > "$w/inc/ioctl_semantics.h" <<'H'
#include <stddef.h>
#define __ro_after_init
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define CAP_SYS_ADMIN 21
enum { SEL_IOCTL_NONE, SEL_IOCTL_READ, SEL_IOCTL_MODIFY, SEL_IOCTL_ADMIN };
struct sel_ioctl_cmd { unsigned int value, mask; unsigned char class, cap; };
struct sel_ioctl_handler {
	const char *name, *object;
	unsigned char builtin, module;
	unsigned short first, exact, families;
};
struct sel_ioctl_addr { unsigned long addr; unsigned short handler; };
H
cat > "$w/main.c" <<'C'
#include <stdio.h>
#include "table.c"
int main(void)
{
	for (unsigned int i = 0; i < sel_ioctl_nr_handlers; i++) {
		const struct sel_ioctl_handler *h = &sel_ioctl_handlers[i];

		printf("%s %s %s\n", h->name, h->object,
		       h->builtin ? "builtin" : h->module ? "module" : "absent");
	}
	for (unsigned int i = 0; i < sel_ioctl_nr_handlers; i++)
		for (unsigned int k = 0; k < sel_ioctl_handlers[i].exact; k++)
			printf("entry %s 0x%08x\n", sel_ioctl_handlers[i].name,
			       sel_ioctl_cmds[sel_ioctl_handlers[i].first + k].value);
	for (unsigned int i = 0; i < sel_ioctl_nr_handlers; i++)
		for (unsigned int k = sel_ioctl_handlers[i].exact;
		     k < sel_ioctl_handlers[i].exact + sel_ioctl_handlers[i].families; k++)
			printf("family %s 0x%08x/0x%08x\n", sel_ioctl_handlers[i].name,
			       sel_ioctl_cmds[sel_ioctl_handlers[i].first + k].value,
			       sel_ioctl_cmds[sel_ioctl_handlers[i].first + k].mask);
	for (unsigned int i = 0; i < sel_ioctl_fallback.exact; i++)
		printf("fallback 0x%08x\n", sel_ioctl_cmds[sel_ioctl_fallback.first + i].value);
	for (unsigned int k = sel_ioctl_fallback.exact;
	     k < sel_ioctl_fallback.exact + sel_ioctl_fallback.families; k++)
		printf("fallback family 0x%08x/0x%08x\n",
		       sel_ioctl_cmds[sel_ioctl_fallback.first + k].value,
		       sel_ioctl_cmds[sel_ioctl_fallback.first + k].mask);
	return 0;
}
C
if ! gcc -Wall -Werror -include "$w/inc/linux/kconfig.h" -I"$w/inc" -I"$w" -o "$w/main" "$w/main.c" \
	2> "$w/cc.err"; then
	echo "not ok - the generated table does not compile: $(head -3 "$w/cc.err")"
	exit 1
fi
"$w/main" > "$w/links"
want() {
	grep -qxF "$1" "$w/links" && echo "ok - $2" || echo "not ok - $2: '$1' not in: $(tr '\n' ';' < "$w/links")"
}
want "fix_ioctl fixmod module" "a module's handler is linked as a module (FIX_MOD=m)"
want "fix_ioctl otherdrv builtin" "another object's function of the same name keeps its own entry, built in (FIX_OTHER=y)"
want "twin_ioctl twin builtin" "an object two options build is built in when either builds it in"
want "core_ioctl core builtin" "an object built whenever the kernel is is built in"
want "absent_ioctl absent absent" "an object the configuration does not build is never bound"
! grep -q "^two_modules_ioctl \|^unbound_ioctl " "$w/links" &&
	echo "ok - a handler not bound to one object has no entry of its own" ||
	echo "not ok - an unbound handler has an entry: $(grep 'two_modules\|unbound' "$w/links")"
want "fallback 0x4004f701" "an unbound handler's command is in the fallback"
# `*`, every command of a handler that never reads its command: under mask 0,
# for its own handler only; in the fallback it would match every command
# of every file the fallback serves
want "family every_ioctl 0x00000000/0x00000000" "a handler's every command (\`*\`, mask 0) is its own family"
! grep -q "^fallback family 0x00000000/0x00000000" "$w/links" &&
	echo "ok - an unbound handler's every command is not in the fallback" ||
	echo "not ok - a mask-0 family is in the fallback"
want "entry proto_ioctl 0x4004f801" "a socket kind's handler (proto_ops.ioctl) has its own entry"
! grep -q "^fallback 0x4004f801" "$w/links" && echo "ok - a socket kind's command is not in the fallback" ||
	echo "not ok - proto_ops.ioctl's command is in the fallback"
want "entry sock_ioctl 0x0000f901" "a command sock_ioctl serves itself is sock_ioctl's"
want "entry sock_do_ioctl 0x0000f902" "a command of sock_ioctl that reaches dev_ioctl is sock_do_ioctl's"
! grep -q "^entry sock_ioctl 0x0000f902" "$w/links" && echo "ok - ... and not sock_ioctl's" ||
	echo "not ok - sock_ioctl keeps its dev_ioctl command"
want "sock_do_ioctl socket builtin" "sock_do_ioctl is bound to sock_ioctl's object"
want "fallback 0x0000f902" "sock_ioctl's commands stay in the fallback, as before"
want "fix_a_ioctl drmfix builtin" "a DRM table's entry function is bound to the table's object"
want "family fix_a_ioctl 0x00006440/0x0000ffff" "a DRM table's command is its entry function's"
! grep -q "^fix_drm_ioctls \|^drm_noop " "$w/links" &&
	echo "ok - neither the DRM table nor another object's entry function (drm_noop) is a handler" ||
	echo "not ok - $(grep '^fix_drm_ioctls \|^drm_noop ' "$w/links")"
[ "$(grep -c '0x0000644[01], 0x0000ffff' "$w/table.c")" = 1 ] &&
	grep -q '0x00006440, 0x0000ffff.*DRM_IOCTL_FIX_A' "$w/table.c" &&
	echo "ok - a DRM table's commands are in the table once: not in the fallback, not drm_noop's" ||
	echo "not ok - DRM entries: $(grep '0x0000644[01]' "$w/table.c" | tr '\n' ';')"
want "clock_ioctl clockcore builtin" "a handler with no command of its own (posix_clock_ioctl) is in the table, so its files do not take the fallback"
! grep -q "^entry clock_ioctl \|^family clock_ioctl " "$w/links" && echo "ok - ... with no entries" ||
	echo "not ok - clock_ioctl has entries: $(grep ' clock_ioctl ' "$w/links" | tr '\n' ';')"
want "entry fix_clock_ioctl 0x8004fc01" "a posix clock driver's handler (posix_clock_operations.ioctl) has its own entry"
! grep -q "^fallback 0x8004fc01" "$w/links" && echo "ok - a posix clock driver's command is not in the fallback" ||
	echo "not ok - posix_clock_operations.ioctl's command is in the fallback"
# a V4L2 file's handler (v4l2_ioctl, which calls vdev->fops->unlocked_ioctl):
# every v4l2_file_operations.unlocked_ioctl handler's commands under it,
# merged to the most restrictive class; an unknown one does not mask
# another's class; none in the fallback, none under the handlers themselves
want "entry v4l2_ioctl 0x8004fd01" "a merged kind's command is listed under the core's handler (v4l2_ioctl)"
grep -q '0x8004fd01, 0xffffffff, SEL_IOCTL_MODIFY.*2 handlers' "$w/table.c" &&
	echo "ok - ... merged to the most restrictive class of the handlers that serve it (read and modify: modify)" ||
	echo "not ok - merged 0x8004fd01: $(grep '0x8004fd01' "$w/table.c")"
grep -q '0x8004fd03, 0xffffffff, SEL_IOCTL_READ' "$w/table.c" &&
	echo "ok - ... an unknown command of one handler does not mask another's class" ||
	echo "not ok - merged 0x8004fd03: $(grep '0x8004fd03' "$w/table.c")"
! grep -q "^fallback 0x8004fd0\|^fix_video_ioctl \|^fix_subdev_ioctl " "$w/links" &&
	echo "ok - a merged kind's commands are not in the fallback, and its handlers are not in the table" ||
	echo "not ok - $(grep 'fd0\|fix_video\|fix_subdev' "$w/links" | tr '\n' ';')"
# a media device node's handler (media_ioctl, which calls
# devnode->fops->ioctl): the media_file_operations.ioctl handler's commands
# under it, with their own classes; not under the handler itself
want "entry media_ioctl 0xc004fa01" "a second merged kind's command is listed under its core's handler (media_ioctl)"
grep -q '0xc004fa02, 0xffffffff, SEL_IOCTL_MODIFY' "$w/table.c" &&
	echo "ok - ... with the class of the one handler that serves it" ||
	echo "not ok - media 0xc004fa02: $(grep '0xc004fa02' "$w/table.c")"
! grep -q "^fallback 0xc004fa0\|^fix_media_device_ioctl " "$w/links" &&
	echo "ok - the media kind's commands are not in the fallback, and its handler is not in the table" ||
	echo "not ok - $(grep 'fa0\|fix_media' "$w/links" | tr '\n' ';')"
# a V4L2 file's 32-bit handler (v4l2_compat_ioctl32: the core's commands
# through the file's unlocked_ioctl, the others through the device's
# compat_ioctl32): both kinds under it, each named in a comment
want "entry v4l2_compat_ioctl32 0x8004fd01" "the native kind's commands are listed under the 32-bit core handler (v4l2_compat_ioctl32)"
want "entry v4l2_compat_ioctl32 0xc008f801" "... and the compat_ioctl32 kind's too"
grep -q "with every v4l2_file_operations.compat_ioctl32's commands, merged" "$w/table.c" &&
	grep -q "with every v4l2_file_operations.unlocked_ioctl's commands, merged" "$w/table.c" &&
	echo "ok - a handler two kinds merge into names both" ||
	echo "not ok - merge comments: $(grep 'with every' "$w/table.c" | tr '\n' ';')"
# an IIO device's handler (iio_ioctl, which offers the command to each
# registered iio_ioctl_handler in turn)
want "entry iio_ioctl 0x8004f901" "a third merged kind's command is listed under its core's handler (iio_ioctl)"
! grep -qi "fb01" "$w/table.c" && echo "ok - a kind the lookup does not reach is not in the table" ||
	echo "not ok - v4l2_ioctl_ops.vidioc_default's command is in the table"

# --config: the same configuration as a .config, figures per link
printf 'CONFIG_FIX_MOD=m\nCONFIG_FIX_OTHER=y\nCONFIG_TWIN_A=m\nCONFIG_TWIN_B=y\n# CONFIG_FIX_ABSENT is not set\n' > "$w/dot.config"
if "$scan" table "$r" -o "$w/table2.c" --config "$w/dot.config" > "$w/config.out" 2>&1 &&
	cmp -s "$w/table.c" "$w/table2.c"; then
	echo "ok - --config leaves the table as it is"
else
	echo "not ok - --config: $(tail -1 "$w/config.out")"
fi
fig() {
	grep -qF "$1" "$w/config.out" && echo "ok - --config: $2" ||
		echo "not ok - --config: $2: '$1' not in: $(grep '^  ' "$w/config.out" | tr '\n' ';')"
}
fig "  built in: 9 handlers; entries by lookup: syscall 0, file 3, disk, tty, clock, socket or DRM driver 6" \
	"built in: fix_ioctl of otherdrv, every_ioctl and sock_ioctl (file), twin_ioctl (tty), core_ioctl (disk), fix_clock_ioctl (clock), proto_ioctl and sock_do_ioctl (socket), fix_a_ioctl (DRM driver)"
fig "  modules: 1 handlers; entries by lookup: syscall 0, file 2, disk, tty, clock, socket or DRM driver 0" \
	"a module: fix_ioctl of fixmod, two entries"
fig "  not built: 5 handlers; entries by lookup: syscall 0, file 11, disk, tty, clock, socket or DRM driver 0" \
	"not built: absent_ioctl, v4l2_ioctl and v4l2_compat_ioctl32 (CONFIG_VIDEO_DEV unset) with their three and four merged entries, media_ioctl (CONFIG_MEDIA_SUPPORT unset) with its two, iio_ioctl (CONFIG_IIO unset) with its one"
fig "  not bound to one object (fallback): 3 handlers" "the three unbound handlers"
"$scan" table "$r" -o "$w/table3.c" --config "$w/nosuch.config" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ ! -e "$w/table3.c" ] &&
	echo "ok - a missing --config file exits 2 and writes nothing" ||
	echo "not ok - missing --config exits $rc$([ -e "$w/table3.c" ] && echo ', table written')"
