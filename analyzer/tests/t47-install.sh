#!/bin/bash
# make install puts the program, its knowledge files and a man page per
# subcommand under PREFIX, and the installed program finds its data there.
set -u
p=$WORK/install/prefix
rm -rf "$WORK/install"
make -s -C "$ANALYZER" install PREFIX="$p" > "$WORK/install.log" 2>&1 &&
	echo "ok - make install PREFIX=..." || echo "not ok - make install: $(tail -3 "$WORK/install.log")"
"$p/bin/ioctl-scan" --version > /dev/null && echo "ok - the installed program runs" ||
	echo "not ok - the installed program does not run"
missing=""
for f in $(cd "$ANALYZER/data" && ls *.json); do
	[ -f "$p/share/ioctl-scan/$f" ] || missing+=" $f"
done
# the program's page and one per subcommand of main.c's command table
. "$ANALYZER/tests/lib/checks.sh"
subs=$(subcommands | sed 's/^/-/')
[ "$(wc -w <<<"$subs")" -ge 5 ] || missing+=" (main.c's subcommand table not found)"
for s in "" $subs; do
	[ -f "$p/share/man/man1/ioctl-scan$s.1" ] || missing+=" ioctl-scan$s.1"
	man -l "$p/share/man/man1/ioctl-scan$s.1" > /dev/null 2>&1 || missing+=" (unformattable ioctl-scan$s.1)"
done
[ -z "$missing" ] && echo "ok - knowledge files and a man page for the program and each subcommand" ||
	echo "not ok - missing:$missing"
# the installed program reads its knowledge from PREFIX/share/ioctl-scan:
# scanning a fixture needs handler_kinds.json
t=$ANALYZER/tests/fixtures/tree
printf '[{ "directory": "%s", "file": "%s/drivers/if_chain.c", "command": "cc -I%s/include -c %s/drivers/if_chain.c" }]\n' \
	"$t" "$t" "$t" "$t" > "$WORK/install/compile_commands.json"
env -u IOCTL_SCAN_DATA "$p/bin/ioctl-scan" -q -j1 --compile-commands "$WORK/install/compile_commands.json" \
	-o "$WORK/install/report.json" "$t" drivers/if_chain.c > "$WORK/install/scan.log" 2>&1
grep -q '"name": "chain_ioctl"' "$WORK/install/report.json" 2>/dev/null &&
	echo "ok - the installed program finds its knowledge files" ||
	echo "not ok - the installed program could not scan: $(tail -2 "$WORK/install/scan.log")"
# and explain its avc_narrowing.json
echo 'type=AVC msg=audit(1700000000.123:456): avc:  denied  { ioctl } for  pid=1 comm="stty" path="/dev/pts/0" ioctlcmd=0x5401 scontext=u:r:a_t:s0 tcontext=u:object_r:b_t:s0 tclass=chr_file permissive=0' |
	env -u IOCTL_SCAN_DATA "$p/bin/ioctl-scan" explain "$ANALYZER/tests/fixtures/explain/report.json" \
	> "$WORK/install/explain.out" 2>&1
grep -qxF '  narrowed to tty handlers by tclass=chr_file path=/dev/pts/0' "$WORK/install/explain.out" &&
	echo "ok - the installed explain finds its narrowing data" ||
	echo "not ok - the installed explain: $(head -2 "$WORK/install/explain.out")"
