#!/bin/bash
# What had no test of its own:
#   - `stats` on the diff fixture's second report: its per-class counts and
#     its direction-bits table, against counts this script takes from the
#     fixture itself (each command's class, and its value's top two bits,
#     the _IOC direction);
#   - `flags`: the clang command it prints parses random.c cleanly;
#   - `--data-dir`: a copy of the data gives the same report, a damaged
#     data file is a one-line error (exit 2) and no report;
#   - `make scan`'s own exit handling: a report for a file that parses
#     (exit 0), a report and a note for a file that does not (exit 0: the
#     report lists it), and a failure for a path that does not exist.
set -u
w=$WORK/stats-flags-scan
rm -rf "$w" && mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
r=$ANALYZER/tests/fixtures/diff/new.json

# the fixture's commands, one "class dir" line each, read from its JSON:
# each command object is on one line there
grep '"value": "0x' "$r" |
	sed 's/.*"value": "\(0x[0-9a-f]*\)".*"class": "\([a-z]*\)".*/\2 \1/' |
	while read -r class value; do
		echo "$class $(((value >> 30) & 3))"
	done > "$w/fixture.txt"
n=$(wc -l < "$w/fixture.txt")
if "$scan" stats "$r" > "$w/stats.txt" 2>&1 && [ "$n" -gt 0 ]; then
	echo "ok - stats on the fixture exits 0"
else
	echo "not ok - stats exit status, or no commands read from the fixture ($n)"
fi
count() { awk -v c="$1" -v d="${2:-}" '$1 == c && (d == "" || $2 == d) { n++ } END { print n + 0 }' "$w/fixture.txt"; }
want="all $(count read) $(count modify) $(count admin) $(count unknown)"
got=$(awk '$1 == "all" { print $1, $2, $3, $4, $5 }' "$w/stats.txt")
[ "$got" = "$want" ] && grep -qx "commands: $n" "$w/stats.txt" &&
	echo "ok - stats: $n commands, per class $want" || echo "not ok - stats per class: '$got', expected '$want'"
bad=""
dirs=(none write read read_write)
for d in 0 1 2 3; do
	want="${dirs[$d]} $(count read $d) $(count modify $d) $(count admin $d) $(count unknown $d)"
	got=$(awk -v n="${dirs[$d]}" '$1 == n { print $1, $2, $3, $4, $5 }' "$w/stats.txt")
	[ "$got" = "$want" ] || bad+=" '$got' (expected '$want')"
done
[ -z "$bad" ] && echo "ok - stats: the direction bits against class table" ||
	echo "not ok - stats direction table:$bad"

# flags: the printed command is a clang invocation that parses the file
if "$scan" flags --build-dir "$KOBJ" "$KSRC" drivers/char/random.c > "$w/flags.txt" 2> "$w/flags.err" &&
	[ "$(wc -l < "$w/flags.txt")" -eq 1 ]; then
	echo "ok - flags prints one command for one file"
else
	echo "not ok - flags: $(head -c 300 "$w/flags.err")"
fi
cmd=$(cat "$w/flags.txt")
if (cd "$KSRC" && eval "$cmd") > "$w/clang.out" 2>&1; then
	echo "ok - the command flags prints parses random.c without an error"
else
	echo "not ok - the command flags prints fails: $(grep -m2 error "$w/clang.out")"
fi
"$scan" flags --build-dir "$KOBJ" "$KSRC" no/such/file.c > /dev/null 2> "$w/flags-missing.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$w/flags-missing.err")" -eq 1 ] &&
	echo "ok - flags on a missing file: one line, exit 2" || echo "not ok - flags on a missing file: exit $rc"

# --data-dir
cp -r "$ANALYZER/data" "$w/data"
"$scan" -q -j1 --build-dir "$KOBJ" -o "$w/default.json" "$KSRC" drivers/char/random.c &&
	"$scan" -q -j1 --data-dir "$w/data" --build-dir "$KOBJ" -o "$w/copy.json" "$KSRC" drivers/char/random.c &&
	cmp -s "$w/default.json" "$w/copy.json" &&
	echo "ok - --data-dir with a copy of the data gives the same report" ||
	echo "not ok - --data-dir with a copy of the data"
echo '{ "broken": ' > "$w/data/kernel_api.json"
"$scan" -q -j1 --data-dir "$w/data" --build-dir "$KOBJ" -o "$w/broken.json" "$KSRC" drivers/char/random.c \
	2> "$w/broken.err"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l < "$w/broken.err")" -eq 1 ] && grep -q kernel_api.json "$w/broken.err" &&
	[ ! -e "$w/broken.json" ] &&
	echo "ok - a damaged data file: one line naming it, exit 2, no report" ||
	echo "not ok - a damaged data file: exit $rc, $(head -c 300 "$w/broken.err")"
# data files of the wrong shape: each is one line naming the file and the
# entry, exit 2 (python3 edits a fresh copy of the data each time)
shape() {	# shape FILE PATTERN DESCRIPTION PYTHON-STATEMENT-ON-j
	local file=$1 pattern=$2 desc=$3 edit=$4
	rm -rf "$w/shape"; cp -r "$ANALYZER/data" "$w/shape"
	python3 -c "import json, sys; p = sys.argv[1]; j = json.load(open(p)); $edit; json.dump(j, open(p, 'w'))" \
		"$w/shape/$file"
	"$scan" -q -j1 --no-cache --data-dir "$w/shape" --build-dir "$KOBJ" -o "$w/shape.json" \
		"$KSRC" drivers/char/random.c 2> "$w/shape.err"
	local rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l < "$w/shape.err")" -eq 1 ] && grep -q -- "$pattern" "$w/shape.err" &&
		[ ! -e "$w/shape.json" ] && echo "ok - data: $desc: one line, exit 2" ||
		echo "not ok - data: $desc: exit $rc, $(head -c 300 "$w/shape.err")"
}
shape handler_kinds.json 'kinds\[3\]: "cmd_param" must be an integer' "a kind without cmd_param" \
	"j['kinds'][3].pop('cmd_param')"
shape handler_kinds.json 'kinds\[3\]: unknown key "cmd_parm"' "a misspelt key in a kind" \
	"j['kinds'][3]['cmd_parm'] = 1"
shape handler_kinds.json 'forwarders\[0\] needs function and to_field' "a forwarder without to_field" \
	"j['forwarders'][0].pop('to_field')"
shape kernel_api.json 'foo: the effect must be a string' "an effect that is not a string" \
	"j['functions']['foo'] = 3"
shape kernel_api.json "foo: cannot read 'user_ns:0'" "a namespace on what is not a capability check" \
	"j['functions']['foo'] = 'modify user_ns:0'"
shape kernel_api.json "ns_capable: cannot read 'usr_ns:0'" "a misspelt namespace of a capability check" \
	"j['functions']['ns_capable'] = 'capability:1 usr_ns:0'"
shape kernel_api.json "foo: 'modify:0' takes no argument" "an argument to an effect that takes none" \
	"j['functions']['foo'] = 'modify:0'"
shape kernel_api.json "foo: 'writes_arg' needs the argument it acts on" \
	"a store through an argument without the argument" "j['functions']['foo'] = 'writes_arg'"
shape ops_contracts.json "rtc_class_ops.read_time: 'ref_get' is not an effect a member's contract can state" \
	"a contract stating what only a call can do" "j['members']['rtc_class_ops.read_time'] = 'ref_get'"
shape kernel_api.json 'unknown key "macro_call"' "a misspelt key in kernel_api.json" \
	"j['macro_call'] = []"
shape ops_contracts.json 'unknown key "member"' "a misspelt key in ops_contracts.json" \
	"j['member'] = {}"

# make scan, as README's first command runs it, on single files
mk() { make -s -C "$ROOT" scan KSRC="$KSRC" KOBJ="$KOBJ" REPORT="$w/$1.json" PATHS="$2" > "$w/$1.out" 2>&1; }
mk good drivers/char/random.c
rc=$?
[ $rc -eq 0 ] && grep -qx "report: $w/good.json" "$w/good.out" && [ -s "$w/good.json" ] &&
	echo "ok - make scan: a report and its path (exit 0)" || echo "not ok - make scan: exit $rc: $(tail -2 "$w/good.out")"
# a file clang 14 cannot parse under allmodconfig (the report's diagnostics)
mk unparsed drivers/ata/libata-scsi.c
rc=$?
[ $rc -eq 0 ] && grep -q "some files did not parse" "$w/unparsed.out" &&
	grep -q '"severity": "error"' "$w/unparsed.json" &&
	echo "ok - make scan of a file that does not parse: the report lists it, and a note (exit 0)" ||
	echo "not ok - make scan of a file that does not parse: exit $rc: $(tail -2 "$w/unparsed.out")"
mk missing no/such/file.c
rc=$?
[ $rc -ne 0 ] && [ ! -e "$w/missing.json" ] && grep -q "no/such/file.c" "$w/missing.out" &&
	echo "ok - make scan of a path that does not exist fails and says which" ||
	echo "not ok - make scan of a missing path: exit $rc: $(tail -2 "$w/missing.out")"
