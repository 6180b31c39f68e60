#!/bin/bash
# The documentation says what the code does, read from the code itself:
#   - every long option of the program (main.c's option table) is in
#     `ioctl-scan --help`, README's options table and ioctl-scan(1);
#   - every subcommand (main.c's command table) has its usage line in
#     --help, a man page ioctl-scan-<name>(1) and a mention in README, and
#     every option its cmd_<name>.c compares argv with is in that man page
#     and its usage line;
#   - every test script is in README's Tests list, every analyzer source
#     file in README's pipeline table, and every relative link in README
#     and the other Markdown files names a file that exists.
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

missing=""
for f in "$src"/*.c; do
	grep -q "\`$(basename "$f")\`" "$w/pipeline.md" || missing+=" $(basename "$f")"
done
[ -z "$missing" ] && echo "ok - every analyzer source file is in README's pipeline table" ||
	echo "not ok - sources not in README's pipeline table:$missing"

missing=""
for md in $(cd "$ROOT" && git ls-files '*.md' 2> /dev/null || find . -name '*.md' -not -path './build/*'); do
	dir=$(dirname "$ROOT/$md")
	for link in $(grep -oE '\]\([^)#[:space:]]+' "$ROOT/$md" | sed 's/^](//' | grep -v '^[a-z]*:'); do
		[ -e "$dir/$link" ] || missing+=" $md:$link"
	done
done
[ -z "$missing" ] && echo "ok - every relative link in the Markdown files names a file that exists" ||
	echo "not ok - dead links:$missing"
