# Helpers the tests share. Sourced; needs ANALYZER (run-tests.sh exports it).

# have COMMAND PACKAGE: true if COMMAND is installed; otherwise prints a
# not ok naming the package that provides it (a missing tool never
# skips a check silently)
have() {
	command -v "$1" > /dev/null && return 0
	echo "not ok - $1 is missing: apt-get install $2 (make deps installs it)"
	return 1
}

# subcommands: the subcommands main.c's command table dispatches, one a line
subcommands() {
	sed -n 's/^[[:space:]]*{ "\([a-z]*\)", cmd_[a-z_]* },.*/\1/p' "$ANALYZER/src/main.c"
}

# fixture_compile_db TREE: a compile database of the miniature tree's
# drivers/*.c and fs/*.c, as the scans of the fixtures use it
fixture_compile_db() {
	local t=$1 f first=1
	echo "["
	for f in $(cd "$t" && ls drivers/*.c fs/*.c); do
		[ $first -eq 1 ] || echo ","
		first=0
		printf '{ "directory": "%s", "file": "%s/%s", "command": "cc -I%s/include -c %s/%s" }\n' \
			"$t" "$t" "$f" "$t" "$t" "$f"
	done
	echo "]"
}
