#!/bin/bash
# Regenerates a release's patch series (kernel-glue/linux-<ver>/series/)
# from what it is made of:
#   - the series itself, for the changes to existing kernel files;
#   - the kernel-side files it adds, kept readable under kernel-glue/linux-<ver>/
#     (security/selinux/...) or, when they are the same for every release,
#     kernel-glue/common/, which replace the copies of the patch that adds
#     them; a later patch's change to such a file stays in that patch (the
#     copy kept here is the file as the adding patch leaves it);
#   - the generated table, generated/linux-<release>/ioctl_semantics_table.c.
# Each patch is applied with `git am` to a scratch repository holding the
# pristine files the series touches (from KSRC), its added files are refreshed,
# and the series is written back with `git format-patch`. Output is
# deterministic: same inputs, same bytes.
#
# usage: make-series.sh KSRC GLUE_DIR TABLE [OUT_DIR]
#   OUT_DIR defaults to GLUE_DIR/series (written through a temporary
#   directory and renamed into place).
set -euo pipefail

ksrc=$1 glue=$(realpath "$2") table=$(realpath "$3") out=${4:-$glue/series}
series=$glue/series
# files the same for every release; a release's own copy takes precedence
common=$(dirname "$glue")/common
[ -d "$series" ] || { echo "make-series: no series in $series" >&2; exit 2; }
[ -f "$table" ] || { echo "make-series: no table $table (run make generate)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo"
export GIT_CONFIG_NOSYSTEM=1 HOME=$work
git -C "$repo" init -q
git -C "$repo" config user.name pristine
git -C "$repo" config user.email pristine@localhost

# the pristine files the series modifies (not those an earlier patch adds
# and a later one changes: see below)
for f in $(grep -h '^--- a/' "$series"/*.patch | sed 's|^--- a/||' | sort -u); do
	[ -f "$ksrc/$f" ] || continue
	mkdir -p "$repo/$(dirname "$f")"
	cp "$ksrc/$f" "$repo/$f"
done
git -C "$repo" add -A
GIT_COMMITTER_DATE='1970-01-01T00:00:00Z' GIT_AUTHOR_DATE='1970-01-01T00:00:00Z' \
	git -C "$repo" commit -qm pristine

for p in "$series"/*.patch; do
	git -C "$repo" am -q --keep-cr "$p" || {
		echo "make-series: $(basename "$p") does not apply to $ksrc" >&2
		exit 1
	}
	date=$(git -C "$repo" log -1 --format=%aI)
	for f in $(git -C "$repo" show --diff-filter=A --name-only --format= HEAD); do
		if [ "$(basename "$f")" = ioctl_semantics_table.c ]; then
			cp "$table" "$repo/$f"
		elif [ -f "$glue/$f" ]; then
			cp "$glue/$f" "$repo/$f"
		elif [ -f "$common/$f" ]; then
			cp "$common/$f" "$repo/$f"
		fi
	done
	git -C "$repo" add -A
	GIT_COMMITTER_DATE=$date git -C "$repo" commit -q --amend --no-edit --allow-empty
done

mkdir -p "$work/out"
git -C "$repo" format-patch -q --zero-commit --no-signature -o "$work/out" HEAD~$(ls "$series"/*.patch | wc -l)
rm -rf "$out.tmp"
mkdir -p "$(dirname "$out")"
cp -r "$work/out" "$out.tmp"
rm -rf "$out"
mv "$out.tmp" "$out"
