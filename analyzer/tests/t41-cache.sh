#!/bin/bash
# The facts cache (facts_cache.h): the report is byte-identical with a cold
# cache, a warm cache and no cache; exactly the files whose translation unit
# changed (a header, a flag, the facts format, the knowledge extraction
# reads) are parsed
# again; damaged entries are detected and replaced; concurrent scans share
# a cache; the size limit holds. Which files were parsed is read from
# --cache-log, and what should be parsed from the tree's own #include lines.
set -u
w=$WORK/cache
rm -rf "$w"
mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
tree=$w/tree
cp -r "$ANALYZER/tests/fixtures/tree" "$tree"

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
	local what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; fi
}

# the miniature tree, compiled as the fixtures are: one compile database
ccdb() { # ccdb EXTRA-FLAGS-FOR-FILE FILE
	local f first=1
	echo "["
	for f in $(cd "$tree" && ls drivers/*.c fs/*.c); do
		[ $first -eq 1 ] || echo ","
		first=0
		extra=""
		[ "$f" = "${2:-}" ] && extra=" $1"
		printf '{ "directory": "%s", "file": "%s/%s", "command": "cc -I%s/include%s -c %s/%s" }\n' \
			"$tree" "$tree" "$f" "$tree" "$extra" "$tree" "$f"
	done
	echo "]"
}
mkdir -p "$w/db"
ccdb > "$w/db/compile_commands.json"
# the configuration the fixtures are built with (the build directory is
# the compile database's): without it the object_*.c fixtures are not built
cp "$tree/fixtures.config" "$w/db/.config"
nfiles=$(cd "$tree" && ls drivers/*.c fs/*.c | wc -l)

run() { # run NAME [OPTIONS...]: scans the miniature tree, cache in $w/c
	local name=$1
	shift
	"$scan" -j2 --compile-commands "$w/db/compile_commands.json" --cache-dir "$w/c" \
		--cache-log "$w/$name.log" -o "$w/$name.json" "$@" "$tree" \
		2> "$w/$name.err"
	echo $? > "$w/$name.rc"
}
# the files a run parsed (not taken from the cache), sorted
parsed() { grep -v '^hit' "$w/$1.log" | cut -f2 | sort; }
outcome_count() { grep -c "^$2	" "$w/$1.log"; }
status_ok() { [ "$(cat "$w/$1.rc")" -le 1 ]; }
same_report() { cmp -s "$w/nocache.json" "$w/$1.json"; }
differs() { ! cmp -s "$1" "$2"; }

"$scan" -j2 --no-cache --compile-commands "$w/db/compile_commands.json" -o "$w/nocache.json" "$tree" 2> "$w/nocache.err"
check "--no-cache scan of the miniature tree exits 0 or 1" test $? -le 1
check "--no-cache creates no cache directory" test ! -e "$w/c"

run cold
check "cold scan exits 0 or 1" status_ok cold
check "cold scan parses all $nfiles files" test "$(outcome_count cold miss)" -eq "$nfiles"
check "cold cache: report byte-identical to --no-cache" same_report cold
check "cold scan stores one entry per file" \
	test "$(find "$w/c" -type f ! -name '*.tmp.*' | wc -l)" -eq "$nfiles"

run warm
check "warm scan exits 0 or 1" status_ok warm
check "warm scan takes all $nfiles files from the cache" test "$(outcome_count warm hit)" -eq "$nfiles"
check "warm cache: report byte-identical to --no-cache" same_report warm
check "warm scan says what it saved on stderr" \
	grep -q "^facts cache: $nfiles files, $nfiles from the cache, 0 parsed" "$w/warm.err"

# A header: the files that include it, directly or through another
# header, are parsed again, and no other.
hdr=include/linux/hf_inline.h
users() { # the .c files whose #include lines reach header $1 (one level of headers)
	local h=${1#include/} via
	via=$(cd "$tree" && grep -l "#include <$h>" include -r | sed 's|^include/||')
	(cd "$tree" && for v in "$h" $via; do grep -l "#include <$v>" drivers/*.c fs/*.c; done) | sort -u
}
expected=$(users $hdr)
echo "/* changed */" >> "$tree/$hdr"
run header
check "a changed header: exactly the $(echo "$expected" | wc -l) files including it parsed again" \
	test "$(parsed header)" = "$expected"
check "a changed header: the entries are stale, not missing" \
	test "$(outcome_count header stale)" -eq "$(echo "$expected" | wc -l)"
"$scan" -q -j2 --no-cache --compile-commands "$w/db/compile_commands.json" -o "$w/nocache.json" "$tree"
check "a changed header: report byte-identical to a --no-cache scan of the changed tree" same_report header

# A flag of one file: that file alone.
flagged=drivers/classes.c
ccdb -DIOCTL_SCAN_CACHE_TEST=1 $flagged > "$w/db/compile_commands.json"
run flag
check "a changed flag: exactly $flagged parsed again" test "$(parsed flag)" = "$flagged"
check "a changed flag: report unchanged" same_report flag

# The knowledge. What an API does is read when classifying: a changed
# entry costs no parse, and the report is the one a scan without the cache
# makes with that knowledge. What extraction reads (the macros it records
# as calls) reparses every file.
cp -r "$ANALYZER/data" "$w/data"
python3 - "$w/data/kernel_api.json" <<'EOF'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d['functions']['capable'] = 'neutral'
json.dump(d, open(p, 'w'), indent=1)
EOF
run api --data-dir "$w/data"
check "a changed API entry: no file parsed again" test "$(outcome_count api hit)" -eq "$nfiles"
"$scan" -q -j2 --no-cache --data-dir "$w/data" --compile-commands "$w/db/compile_commands.json" \
	-o "$w/nocache-api.json" "$tree"
check "a changed API entry: the report changes" differs "$w/nocache.json" "$w/nocache-api.json"
check "a changed API entry: report byte-identical to a --no-cache scan with it" \
	cmp -s "$w/nocache-api.json" "$w/api.json"
python3 - "$w/data/kernel_api.json" <<'EOF'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d['macro_calls'].append('CACHE_TEST_MACRO')
json.dump(d, open(p, 'w'), indent=1)
EOF
run knowledge --data-dir "$w/data"
check "a changed list of macros recorded as calls: all $nfiles files parsed again" \
	test "$(outcome_count knowledge miss)" -eq "$nfiles"

# handler_kinds.json: a kind's argument copy is read when classifying, the
# ops members it names are recorded by extraction.
python3 - "$w/data/handler_kinds.json" <<'EOF'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
k = next(k for k in d['kinds'] if k.get('struct') == 'proto_ops' and k['field'] == 'ioctl')
k['arg_copy'] = 2
json.dump(d, open(p, 'w'), indent=1)
EOF
run kind-copy --data-dir "$w/data"
check "a kind's changed argument copy: no file parsed again" \
	test "$(outcome_count kind-copy hit)" -eq "$nfiles"
python3 - "$w/data/handler_kinds.json" <<'EOF'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d['kinds'].append({'kind': 'cache_test_ops.ioctl', 'struct': 'cache_test_ops',
		   'field': 'ioctl', 'cmd_param': 1})
json.dump(d, open(p, 'w'), indent=1)
EOF
run kind-new --data-dir "$w/data"
check "a new ops member kind: all $nfiles files parsed again" \
	test "$(outcome_count kind-new miss)" -eq "$nfiles"

# Damaged entries: truncated, a flipped byte, garbage. Each is detected,
# reported and replaced; the report does not change. (A fresh cache, so
# that every entry is one this scan uses.)
rm -rf "$w/c"
run before-damage
entries=($(find "$w/c" -type f ! -name '*.tmp.*' | sort | head -n 3))
truncate -s 100 "${entries[0]}"
python3 - "${entries[1]}" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[len(b) // 2] ^= 0x40
open(p, 'wb').write(b)
EOF
head -c 4096 /dev/urandom > "${entries[2]}"
run damaged
check "damaged entries: 3 detected as corrupt" test "$(outcome_count damaged corrupt)" -eq 3
check "damaged entries: a warning names each" \
	test "$(grep -c 'warning: cache entry .* discarded' "$w/damaged.err")" -eq 3
check "damaged entries: report byte-identical" same_report damaged
run repaired
check "damaged entries replaced: the next scan takes every file from the cache" \
	test "$(outcome_count repaired hit)" -eq "$nfiles"

# Facts that are malformed under a valid checksum (a writer's bug, say)
# are refused as they are read; the header functions they had claimed on
# the way go back, so header_inline.c parsed again still has its own and
# the report does not change.
python3 - "$w/c" drivers/header_inline.c <<'EOF'
import hashlib, os, sys
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i
def enc(v):
    out = bytearray()
    while True:
        c = v & 0x7f; v >>= 7
        out.append(c | (0x80 if v else 0))
        if not v:
            return bytes(out)
def string(b, i):
    n, i = varint(b, i)
    return (b[i:i + n - 1].decode() if n else None), i + max(n - 1, 0)
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        b = open(p, 'rb').read()
        fmt, i = string(b, 8)
        plen, j = varint(b, i)
        payload = b[j:j + plen]
        k = 32
        n, k = varint(payload, k)
        for _ in range(n):
            _, k = string(payload, k)
            k += 32
        name, _ = string(payload, k)
        if name == sys.argv[2]:
            cut = payload[:-1]
            open(p, 'wb').write(b[:i] + enc(len(cut)) + cut + hashlib.sha256(cut).digest())
EOF
run malformed
check "malformed facts under a valid checksum: detected as corrupt" \
	test "$(outcome_count malformed corrupt)" -eq 1
check "malformed facts: the header functions it claimed go back (report byte-identical)" \
	same_report malformed

# An entry in another facts format at a key that covers the format was
# damaged or replaced: not used, with a warning.
first=${entries[0]}
python3 - "$first" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
# "IOSCFACT", then the format string: its length, then its first byte
b[9] ^= 1
open(p, 'wb').write(b)
EOF
run otherformat
check "an entry in another facts format: detected, and the file parsed again" \
	test "$(outcome_count otherformat corrupt)" -eq 1
check "an entry in another facts format: a warning says so" \
	grep -q "written in another facts format" "$w/otherformat.err"

# Concurrent scans with an empty cache: both correct, the cache sound after.
rm -rf "$w/c"
run conc1 & run conc2 & wait
check "concurrent cold scans: both reports byte-identical" \
	eval 'same_report conc1 && same_report conc2'
run afterconc
check "after concurrent scans: every entry whole, all taken from the cache" \
	test "$(outcome_count afterconc hit)" -eq "$nfiles"
check "no temporary files left behind" test -z "$(find "$w/c" -name '*.tmp.*')"

# The size limit: least recently used entries go first.
limit=$(( $(du -sb "$w/c" | cut -f1) / 2 ))
run limited --cache-max $limit
check "--cache-max: the cache is at most the limit after a scan" \
	test "$(find "$w/c" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')" -le $limit
check "--cache-max: the report is unchanged" same_report limited

# The facts format is derived from the sources that decide facts: a change
# to extract_facts.c changes it, a change to classify.c does not.
src=$w/src
cp -r "$ANALYZER/src" "$src"
fmt() { "$ANALYZER/facts-format.sh" "$src"; }
f0=$(fmt)
echo "int a_rule;" >> "$src/classify.c"
f1=$(fmt)
printf '/* a comment */\n\n' >> "$src/extract_facts.c"
f2=$(fmt)
echo "int a_fact;" >> "$src/extract_facts.c"
f3=$(fmt)
check "facts format: unchanged by a change to classify.c" test "$f0" = "$f1"
check "facts format: unchanged by a comment in extract_facts.c" test "$f1" = "$f2"
check "facts format: changed by a change to extract_facts.c's code" test "$f2" != "$f3"
check "facts format: the binary's is facts-format.sh's" \
	grep -q "\"$f0\"" "$ANALYZER/build/facts_format.h"
# ... and a binary built from the changed sources parses every file again
rm -rf "$w/an"
mkdir -p "$w/an"
cp -r "$src" "$ANALYZER/Makefile" "$ANALYZER/facts-format.sh" "$w/an/"
ln -s "$ANALYZER/data" "$w/an/data"
if make -s -C "$w/an" -j2 ioctl-scan > "$w/an.build" 2>&1; then
	scan=$w/an/ioctl-scan run newformat
	scan=$ANALYZER/ioctl-scan
	check "a binary with another facts format parses all $nfiles files again" \
		test "$(outcome_count newformat miss)" -eq "$nfiles"
	check "... and makes the same report" same_report newformat
else
	notok "building the analyzer with a changed extract_facts.c: $(tail -n 3 "$w/an.build")"
fi

# Errors: a cache directory that cannot be made is a one-line usage error.
"$scan" -q --cache-dir /proc/ioctl-scan-cache --compile-commands "$w/db/compile_commands.json" \
	-o "$w/err.json" "$tree" 2> "$w/err.err"
rc=$?
check "an unusable --cache-dir: exit 2" test $rc -eq 2
check "an unusable --cache-dir: one line that names it" \
	eval '[ "$(wc -l < "$w/err.err")" -eq 1 ] && grep -q "/proc/ioctl-scan-cache" "$w/err.err"'
check "an unusable --cache-dir: no report written" test ! -e "$w/err.json"
"$scan" -q --cache-max 12X "$tree" 2> "$w/err2.err"
check "--cache-max with a bad size: exit 2" test $? -eq 2

# The real tree: a few drivers and the files their calls lead to.
paths="drivers/char/random.c drivers/rtc/dev.c drivers/block/loop.c"
real() { # real NAME OPTIONS...
	local name=$1
	shift
	"$scan" -j2 --build-dir "$KOBJ" -o "$w/real-$name.json" "$@" "$KSRC" $paths 2> "$w/real-$name.err"
	echo $? > "$w/real-$name.rc"
}
real nocache --no-cache
real cold --cache-dir "$w/rc" --cache-log "$w/real-cold.log"
real warm --cache-dir "$w/rc" --cache-log "$w/real-warm.log"
check "real tree: scans exit 0 or 1" \
	eval 'for n in nocache cold warm; do [ "$(cat "$w/real-$n.rc")" -le 1 ] || exit 1; done'
check "real tree: cold cache report byte-identical to --no-cache" \
	cmp -s "$w/real-nocache.json" "$w/real-cold.json"
check "real tree: warm cache report byte-identical to --no-cache" \
	cmp -s "$w/real-nocache.json" "$w/real-warm.json"
check "real tree: the warm scan parses nothing" \
	eval '[ -s "$w/real-warm.log" ] && ! grep -qv "^hit" "$w/real-warm.log"'
