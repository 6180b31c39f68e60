#!/bin/bash
# Prints the facts format: a digest of every source that decides what a
# file's facts are or how the cache stores them. It starts from the files
# that produce facts (extract_facts.c, parse_files.c) and store them
# (facts_serial.c, facts_cache.c) and follows their local #includes, taking
# for each header X.h the X.c beside it, to a closure. A change to any of
# them changes the format and so every cache key; a change elsewhere
# (classify.c, dispatch.c, ...) leaves the cache valid.
# usage: facts-format.sh SRCDIR
set -eu -o pipefail
src=$1
todo="extract_facts.c parse_files.c facts_serial.c facts_cache.c"
seen=""
while [ -n "$todo" ]; do
	set -- $todo
	f=$1
	shift
	todo="$*"
	case " $seen " in *" $f "*) continue ;; esac
	[ -f "$src/$f" ] || continue
	seen="$seen $f"
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$src/$f"); do
		todo="$todo $h ${h%.h}.c"
	done
done
for f in $(printf '%s\n' $seen | LC_ALL=C sort); do
	printf '%s\n' "$f"
	${CC:-cc} -fpreprocessed -dD -E -P -x c "$src/$f" || exit 1
done | sha256sum | cut -c1-16
