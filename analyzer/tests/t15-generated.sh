#!/bin/bash
# The committed set of the installed release, generated/linux-<release>/
# (report.json and ioctl_semantics_table.c), is what today's analyzer makes
# of the tree, scanned as `make generate` scans it. Without this, a rule
# change that lands without `make generate` leaves the committed table, the
# one the kernel series compiles, silently stale.
#
# When the installed linux-source package is a release with no committed
# set (Debian served a new point release), the set is generated here into
# $WORK/generated/linux-<release>/, and the tests after this one (t60, t70)
# check that set instead; README says what to commit then. GENERATED
# (default: the repository's generated/) names where committed sets live,
# so that this path can be exercised on purpose: GENERATED=<a copy of
# generated/ without the installed release's directory>.
#
# The whole tree is scanned: with a cold facts cache this is most of the
# analyzer's share of make test, and it leaves the cache warm for t20 and
# t50, which scan subsets of the same tree with the same flags.
set -u
. "$ANALYZER/tests/lib/generated.sh"
w=$WORK/generated
rm -rf "$w"
rel=$(release_of "$KSRC")
committed=$(committed_set "$rel")
fresh=$(fresh_set "$rel")
mkdir -p "$fresh"

# as the Makefile's generate target runs it (allmodconfig is the tree's
# configuration, prepared by make tree)
"$ANALYZER/ioctl-scan" -q -j"${JOBS:-2}" --config-name allmodconfig --build-dir "$KOBJ" \
	-o "$fresh/report.json" "$KSRC" 2> "$w/scan.err"
rc=$?
# 1: some files did not parse; the report lists them and is still the tree's
if [ $rc -le 1 ] && [ -s "$fresh/report.json" ]; then
	echo "ok - whole-tree scan of $rel writes a report (exit $rc)"
else
	echo "not ok - whole-tree scan of $rel: exit $rc: $(head -c 300 "$w/scan.err")"
	exit 1
fi
if "$ANALYZER/ioctl-scan" table "$fresh/report.json" -o "$fresh/ioctl_semantics_table.c" > /dev/null; then
	echo "ok - the table of the fresh report is generated"
else
	echo "not ok - ioctl-scan table failed on the fresh report"
fi

# every command is placed where the tree names it: its label or table
# entry is at (or within two lines before) the report's file:line, so that
# a reviewer opening that place finds it (a command kept its first
# label's line with the file of the function the walk had reached, 180
# commands of 6.1.192 before session 25). A table entry whose macro pastes
# the name together is named MACRO(FIRST) or by the pasted name: the line
# holds FIRST, or a part of the name of two words or more
# (DRM_IOCTL_DEF_DRV(AMDGPU_CTX, ...), MEDIA_IOC(ENUM_LINKS, ...)), or its
# last word as a macro's first argument (PANFROST_IOCTL(SUBMIT, ...)).
# Command 0 of a truth test (`if (cmd) return -ENOIOCTLCMD;`) is at the test;
# the command `*` of a handler that never reads its command, under mask 0,
# at the handler's definition;
# an element of an array of functions (ioctl_handlers[0x1]) at its
# designator ([0x01] = ..., or a macro: [DRM_I915_GETPARAM] = ...).
misplaced=$(python3 - "$fresh/report.json" "$KSRC" <<'EOF'
import json, re, sys
report, tree = json.load(open(sys.argv[1])), sys.argv[2]
files, bad, n = {}, [], 0
for h in report["handlers"]:
    for c in h.get("commands", []):
        n += 1
        f, line = c["file"], c["line"]
        if f not in files:
            try:
                files[f] = open(tree + "/" + f, errors="replace").read().split("\n")
            except OSError:
                files[f] = []
        m = re.match(r"\w+\((\w+)", c["name"])
        words = (m.group(1) if m else c["name"]).split("_")
        names = ["_".join(words[i:]) for i in range(max(1, len(words) - 1))]
        near = files[f][max(0, line - 3):line]
        first_arg = re.compile(r"\w\(\s*" + re.escape(words[-1]) + r"\s*,")
        # command 0 of a truth test of the command, `if (cmd) return -E;`
        truth = c["name"] == "0" and any(re.search(r"\bif\s*\(\s*\w+\s*\)", l) for l in near)
        # every command of a handler that never reads it, `*` under mask 0:
        # at the handler's definition
        if c["name"] == "*":
            if c["mask"] != "0x00000000" or not any(
                    re.search(r"\b%s\s*\(" % re.escape(h["name"]), l) for l in near):
                bad.append("%s * at %s:%d" % (h["name"], f, line))
            continue
        # an element of an array of functions, ARRAY[N]: at its designator
        e = re.match(r"\w+\[(0x[0-9a-f]+|\d+)\]$", c["name"])
        if e:
            want = int(e.group(1), 0)
            for l in near:
                d = re.match(r"\s*\[\s*([^\]]+?)\s*\]\s*=", l)
                # a number must be the index; a macro ([DRM_I915_GETPARAM])
                # is taken as written
                if d and (not re.match(r"(0x[0-9a-fA-F]+|\d+)$", d.group(1)) or
                          int(d.group(1), 0) == want):
                    truth = True
        if not truth and not any(n in l for n in names for l in near) and \
           not any(first_arg.search(l) for l in near):
            bad.append("%s %s at %s:%d" % (h["name"], c["name"], f, line))
print(n, len(bad), "; ".join(bad[:5]))
EOF
)
read -r placed nbad examples <<<"$misplaced"
if [ "${nbad:-1}" = 0 ]; then
	echo "ok - each of the $placed commands of the fresh report is at a line of the tree that names it"
else
	echo "not ok - ${nbad:-?} of ${placed:-?} commands are placed where the tree does not name them: $examples"
fi

if [ ! -d "$committed" ]; then
	echo "# no committed set for $rel: t60 and t70 check the one generated in $fresh;"
	echo "# commit it with: make generate && make kernel-patch (README, \"A new point release\")"
	exit 0
fi
# kernel.source and config.flags say where the tree lay on the machine
# that scanned it; everything else must be the same bytes
placeless() {
	grep -v -e '^  "source": ' -e '^  "flags": "Kbuild flags from ' "$1"
}
if cmp -s <(placeless "$committed/report.json") <(placeless "$fresh/report.json"); then
	echo "ok - $committed/report.json is what the analyzer makes of the tree today"
else
	echo "not ok - $committed/report.json is stale: run make generate (changes: $("$ANALYZER/ioctl-scan" diff \
		"$committed/report.json" "$fresh/report.json" 2>&1 | head -c 400 | tr '\n' ' '))"
fi
if cmp -s "$committed/ioctl_semantics_table.c" "$fresh/ioctl_semantics_table.c"; then
	echo "ok - $committed/ioctl_semantics_table.c is the fresh report's table"
else
	echo "not ok - $committed/ioctl_semantics_table.c is stale: run make generate"
fi
