# Where the tests find a release's generated set (report.json and
# ioctl_semantics_table.c). Sourced by t15, t60 and t70; needs ROOT and
# WORK (run-tests.sh exports them).
#
# The committed sets live in $GENERATED (default: the repository's
# generated/). t15 scans the installed tree into $WORK/generated/; when
# the installed release has no committed set, that fresh one is the set
# the kernel tests check. GENERATED=<a copy of generated/ without the
# installed release's directory> exercises that path.

# release_of TREE: VERSION.PATCHLEVEL.SUBLEVEL as the tree's Makefile says
release_of() {
	sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$1/Makefile" | paste -sd.
}

committed_set() {
	echo "${GENERATED:-$ROOT/generated}/linux-$1"
}

fresh_set() {
	echo "$WORK/generated/linux-$1"
}

# generated_set REL: the committed set of REL, else t15's fresh one
generated_set() {
	if [ -d "$(committed_set "$1")" ]; then
		committed_set "$1"
	else
		fresh_set "$1"
	fi
}

# newest_committed_set VER: the committed set of the newest release of
# the 6.1 or 6.12 series, for a release nothing here has scanned
newest_committed_set() {
	ls -d "${GENERATED:-$ROOT/generated}/linux-$1".* 2> /dev/null | sort -V | tail -1
}
