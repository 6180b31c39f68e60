#!/bin/bash
# The documentation says what the code does, read from the code itself:
#   - every long option of the program (main.c's option table) is in
#     `ioctl-scan --help`, README's options table and ioctl-scan(1);
#   - every subcommand (main.c's command table) has its usage line in
#     --help, a man page ioctl-scan-<name>(1) and a mention in README, and
#     every option its cmd_<name>.c compares argv with is in that man page
#     and its usage line;
#   - every test script is in README's Tests list;
#   - every analyzer source file is named in a row of README's pipeline
#     table (a header by itself or by its .c file), and every file the
#     table names exists;
#   - every file, `file.c:function` and quoted data key that
#     analyzer/HACKING.md names exists;
#   - every relative link in README and the other Markdown files names a
#     file that exists.
set -u
w=$WORK/docs
rm -rf "$w" && mkdir -p "$w"
src=$ANALYZER/src
man=$ANALYZER/doc/man
readme=$ROOT/README.md
"$ANALYZER/ioctl-scan" --help > "$w/help.txt" 2>&1 || { echo "not ok - ioctl-scan --help exit $?"; exit 1; }

# a section of README: from its heading to the next heading of that level
section() {
	awk -v h="$1" 'index($0, h) == 1 { on = 1; print; next } on && /^## / { exit } on' "$readme"
}
section "## ioctl-scan" > "$w/options.md"
section "## How it works" > "$w/pipeline.md"
section "## Tests" > "$w/tests.md"
[ -s "$w/options.md" ] && [ -s "$w/pipeline.md" ] && [ -s "$w/tests.md" ] &&
	echo "ok - README has its options, pipeline and Tests sections" ||
	echo "not ok - README lacks one of: ## ioctl-scan, ## How it works, ## Tests"

missing=""
for opt in $(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", \(no\|required\|optional\)_argument.*/\1/p' "$src/main.c"); do
	grep -q -- "--$opt\b" "$w/help.txt" || missing+=" --$opt(--help)"
	grep -q -- "\`--$opt\b" "$w/options.md" || missing+=" --$opt(README)"
	grep -q -- "--$opt\b" <(MANWIDTH=1000 man -l "$man/ioctl-scan.1" 2> /dev/null) || missing+=" --$opt(ioctl-scan.1)"
done
[ -n "$opt" ] && [ -z "$missing" ] &&
	echo "ok - every option of main.c is in --help, README and ioctl-scan(1)" ||
	echo "not ok - options missing from the documentation:$missing"

. "$ANALYZER/tests/lib/checks.sh"
subs=$(subcommands)
[ "$(wc -w <<<"$subs")" -ge 5 ] && echo "ok - $(wc -w <<<"$subs") subcommands in main.c's table" ||
	echo "not ok - main.c's subcommand table not found"
for s in $subs; do
	missing=""
	usage=$(grep -E "^ +ioctl-scan $s " "$w/help.txt")
	[ -n "$usage" ] || missing+=" usage-line"
	page=$man/ioctl-scan-$s.1
	[ -f "$page" ] || missing+=" ioctl-scan-$s.1"
	grep -q "ioctl-scan $s\b" "$readme" || missing+=" README"
	for opt in $(grep -oE '"--[a-z][a-z-]*"' "$src/cmd_$s.c" 2> /dev/null | tr -d '"' | sort -u); do
		grep -q -- "$opt\b" <<<"$usage" || missing+=" $opt(usage)"
		[ -f "$page" ] && ! grep -q -- "$opt\b" <(MANWIDTH=1000 man -l "$page" 2> /dev/null) && missing+=" $opt(man)"
	done
	[ -z "$missing" ] && echo "ok - $s: usage line, man page and README, with each of its options" ||
		echo "not ok - $s: missing$missing"
done

missing=""
for t in "$ANALYZER"/tests/t[0-9]*.sh "$ROOT"/kernel-glue/tests/t[0-9]*.sh "$ROOT"/qemu-check/tests/t[0-9]*.sh; do
	name=$(basename "$t" .sh)
	grep -q "\`$name\`" "$w/tests.md" || missing+=" $name"
done
[ -z "$missing" ] && echo "ok - every test script is in README's Tests list" ||
	echo "not ok - tests not in README's Tests list:$missing"

# the pipeline table: the rows of the How it works section
grep '^|' "$w/pipeline.md" > "$w/stages.md"
missing=""
for f in "$src"/*.c "$src"/*.h; do
	b=$(basename "$f")
	grep -qF "\`$b\`" "$w/stages.md" && continue
	# a header goes with the row of the .c file of its name
	case $b in *.h) grep -qF "\`${b%.h}.c\`" "$w/stages.md" && continue ;; esac
	missing+=" $b"
done
[ -s "$w/stages.md" ] && [ -z "$missing" ] &&
	echo "ok - every analyzer source file is named in README's pipeline table" ||
	echo "not ok - sources not named in README's pipeline table:$missing"
missing=""
for b in $(grep -oE '`[a-z0-9_-]+\.(c|h|sh)`' "$w/stages.md" | tr -d '`' | sort -u); do
	[ -f "$src/$b" ] || [ -f "$ANALYZER/$b" ] || missing+=" $b"
done
[ -z "$missing" ] && echo "ok - every file README's pipeline table names exists" ||
	echo "not ok - README's pipeline table names files that do not exist:$missing"

# analyzer/HACKING.md, read for what it names:
#   - a path from the repository's top (analyzer/..., kernel-glue/...,
#     qemu-check/..., generated/...), anywhere in the text, up to a
#     placeholder (<release>); the build's own outputs are left out;
#   - `name.c`, `name.h`, `name.sh`, `name.json`: a file of analyzer/src,
#     analyzer/data, analyzer/tests, the fixtures' drivers/ or analyzer/;
#   - `file.c:identifier`: that file, and a line of it starting in column
#     0 (a definition or declaration, not a comment) that names identifier;
#   - `"key"`: a string of a data file that some analyzer source spells too.
hacking=$ANALYZER/HACKING.md
find_file() { # find_file NAME: the path of a file HACKING.md names, or nothing
	case $1 in
	*/*) [ -e "$ROOT/$1" ] && echo "$ROOT/$1" ;;
	*) for d in "$ANALYZER/src" "$ANALYZER/data" "$ANALYZER/tests" \
		"$ANALYZER/tests/fixtures/tree/drivers" "$ANALYZER"; do
		[ -f "$d/$1" ] && echo "$d/$1" && return
	done ;;
	esac
}
if [ ! -f "$hacking" ]; then
	echo "not ok - analyzer/HACKING.md is missing"
else
	grep -oE '`[^`]+`' "$hacking" | tr -d '`' | sort -u > "$w/hacking-names"
	missing="" n=0
	for p in $(grep -oE '(^|[^A-Za-z0-9_$/.-])(analyzer|kernel-glue|qemu-check|generated)/[A-Za-z0-9_./-]*<?' "$hacking" |
		sed 's/^[^a-z]//' | grep -v '<$' | sed 's/[.,]*$//' | grep -v '^analyzer/build/' | sort -u); do
		[ -e "$ROOT/$p" ] || missing+=" $p"
		n=$((n + 1))
	done
	for f in $(grep -E '^[A-Za-z0-9_-]+\.(c|h|sh|json)$' "$w/hacking-names"); do
		[ -n "$(find_file "$f")" ] || missing+=" $f"
		n=$((n + 1))
	done
	for ref in $(grep -E '^[A-Za-z0-9_./-]+\.[ch]:[A-Za-z_][A-Za-z0-9_]*$' "$w/hacking-names"); do
		f=$(find_file "${ref%%:*}")
		id=${ref#*:}
		[ -n "$f" ] && grep -qE "^[A-Za-z_#].*\b$id\b" "$f" || missing+=" $ref"
		n=$((n + 1))
	done
	for key in $(grep -E '^"[A-Za-z_][A-Za-z0-9_]*"$' "$w/hacking-names"); do
		grep -qF "$key" "$ANALYZER"/data/*.json && grep -qF "$key" "$src"/*.c || missing+=" $key"
		n=$((n + 1))
	done
	[ "$n" -ge 50 ] && [ -z "$missing" ] &&
		echo "ok - every file, file.c:function and data key HACKING.md names exists ($n checked)" ||
		echo "not ok - HACKING.md ($n names checked) names what does not exist:$missing"
fi

missing=""
for md in $(cd "$ROOT" && git ls-files '*.md' 2> /dev/null || find . -name '*.md' -not -path './build/*'); do
	dir=$(dirname "$ROOT/$md")
	for link in $(grep -oE '\]\([^)#[:space:]]+' "$ROOT/$md" | sed 's/^](//' | grep -v '^[a-z]*:'); do
		[ -e "$dir/$link" ] || missing+=" $md:$link"
	done
done
[ -z "$missing" ] && echo "ok - every relative link in the Markdown files names a file that exists" ||
	echo "not ok - dead links:$missing"
