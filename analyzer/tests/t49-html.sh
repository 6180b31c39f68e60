#!/bin/bash
# The review page, loaded in a real headless browser (Debian's chromium),
# filtered through the URL fragment and checked on the DOM it builds.
#
# tests/fixtures/diff/new.json (release 2.0.0): 6 commands: A_GET modify
# with evidence "store to a->x" at drivers/a.c:10, A_SET read, A_RESET
# admin CAP_NET_ADMIN, A_SAME read, A_NEW read, C_GET unknown (low).
#
# tests/fixtures/html/report.json (release 6.1.192), built for the summary:
# 10 commands in 5 handlers, per subsystem (unknown/read/modify/admin):
#   drivers/gpu 1/2/1/1 (two handlers: drivers/gpu/drm/, drivers/gpu/vga/)
#   fs          0/0/2/0 (fs/ioctl.c: a file right under a top directory)
#   net/ipv4    0/1/0/1
#   sound/core  0/1/0/0 (the file "sound/core/a b#1%&<x>.c", to escape)
# all: 1/4/3/2. drm_ioctl is at drivers/gpu/drm/drm_ioctl.c:100, DRM_MASTER's
# evidence at drivers/gpu/drm/drm_auth.c:42, ODD_GET's at the odd file:7.
#
# The diff page, old.json (1.0.0) -> new.json (2.0.0), as t45 describes:
# 7 changes, all in subsystem drivers: reclassified A_GET read -> modify
# (tighter), A_SET modify -> read (looser), A_RESET CAP_SYS_ADMIN ->
# CAP_NET_ADMIN (changed); removed A_GONE modify (looser, evidence at
# drivers/a.c:31 in 1.0.0) and B_GET read (looser, its handler removed);
# added A_NEW read (tighter) and C_GET unknown (same, its handler added).
set -u
w=$WORK/html
rm -rf "$w"; mkdir -p "$w"
scan=$ANALYZER/ioctl-scan
fx=$ANALYZER/tests/fixtures
cgit=https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree
elixir='https://elixir.bootlin.com/linux/{tag}/source/{file}#L{line}'

check() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fi; }
make_page() { local out=$1; shift; "$scan" html "$@" -o "$w/$out" 2> "$w/$out.err"; }

make_page page.html "$fx/diff/new.json"; rc=$?
check "html REPORT -o FILE exits 0" '[ $rc -eq 0 ]'
make_page summary.html "$fx/html/report.json"; rc=$?
check "html on the summary fixture exits 0" '[ $rc -eq 0 ]'
make_page elixir.html "$fx/html/report.json" --source-url "$elixir"; rc=$?
check "html --source-url TEMPLATE exits 0" '[ $rc -eq 0 ]'
make_page diff.html --diff "$fx/diff/old.json" "$fx/diff/new.json"; rc=$?
check "html --diff OLD NEW exits 0" '[ $rc -eq 0 ]'
# a report whose strings try to end the script element and to be markup
sed 's|"kernel": {"release": "2.0.0"}|"kernel": {"release": "2<b>\&\\"3"}|; s|store to a->x|</script><!--<script>x|' \
	"$fx/diff/new.json" > "$w/hostile.json"
make_page hostile.html "$w/hostile.json"; rc=$?
check "html on a report with markup in its strings exits 0" '[ $rc -eq 0 ]'

"$scan" html "$fx/html/report.json" --source-url 'https://example.org/{line}' > /dev/null 2>&1; rc=$?
check "a --source-url template without {file} is refused (exit 2)" '[ $rc -eq 2 ]'
"$scan" html --diff "$fx/diff/old.json" > /dev/null 2>&1; rc=$?
check "html --diff with one report is a usage error (exit 2)" '[ $rc -eq 2 ]'

# Nothing in the files loads anything (links are made when the page is
# viewed), and the report's strings reach the page only as data.
check "the pages are self-contained (no src, href, url() or @import in the files)" \
	'! grep -qiE "(src|href)=|url\(|@import" "$w"/page.html "$w"/summary.html "$w"/elixir.html "$w"/diff.html'
check "the title is HTML-escaped" 'grep -qF "<h1>ioctl-scan review: Linux 2&lt;b&gt;&amp;&quot;3</h1>" "$w/hostile.html"'
check "the data cannot end its script element (no < in it)" \
	'[ "$(grep -c "</script>" "$w/hostile.html")" -eq 2 ] &&
	 ! sed -n "s/^<script>var DATA = \(.*\);<\/script>$/\1/p" "$w/hostile.html" | grep -q "<" &&
	 sed -n "s/^<script>var DATA = \(.*\);<\/script>$/\1/p" "$w/hostile.html" | grep -qF "\u003c/script>"'

. "$ANALYZER/tests/lib/checks.sh"
have chromium chromium || exit 0
browser=$(command -v chromium)
dom() { timeout 60 "$browser" --headless --disable-gpu --no-sandbox --dump-dom "file://$w/$1#$2" 2>/dev/null; }
rows() { grep -o '<tr class="cmd">' <<<"$1" | wc -l; }
# the page last loaded ($d) has every one of these strings
has() {
	for s in "$@"; do
		grep -qF -- "$s" <<<"$d" || return 1
	done
}
# its summary's totals are these (key=number...)
totals_are() {
	for kv in "$@"; do
		has "<li data-k=\"${kv%=*}\" data-n=\"${kv#*=}\">" || return 1
	done
}
# elements that would load something: any src, any href but an <a>'s
loaders() {
	grep -oiE '<[a-z][a-z0-9]*[^<>]*[[:space:]](src|href|srcset|poster|data)=' <<<"$1" |
		grep -viE '^<a[[:space:]][^<>]*href=$'
	grep -oiE '<(iframe|object|embed|img|link|video|audio|source)[[:space:]>]' <<<"$1"
}

# --- the report page: filters and evidence (diff/new.json)
d=$(dom page.html "")
check "unfiltered: all 6 commands shown" '[ "$(rows "$d")" -eq 6 ] && has "id=\"count\">6 of 6 commands"'
check "a command's evidence is shown with file:line, linked to the source at v2.0" \
	'has "store: store to a-&gt;x at </span><code><a href=\"$cgit/drivers/a.c?h=v2.0#n10\" title=\"drivers/a.c:10\">drivers/a.c:10</a></code>"'
check "in the page as built, only <a> elements have an href and nothing loads" '[ -z "$(loaders "$d")" ]'
check "the loader check finds a stylesheet, an image and a script src" \
	'[ "$(loaders "<link rel=\"stylesheet\" href=\"x.css\"><img src=\"y.png\"><script src=\"z.js\"></script>" | wc -l)" -eq 5 ]'
# the direction-bits table: A_GET (dir read) is modify, C_GET (read) unknown
check "the direction bits against class table counts every command" \
	'has "<tr><td>read</td><td class=\"unknown\">1</td><td class=\"read\">0</td><td class=\"modify\">1</td><td class=\"admin\">0</td></tr>"'

d=$(dom page.html "class=admin")
check "class=admin: only A_RESET, with its capability" \
	'[ "$(rows "$d")" -eq 1 ] && has "<td>A_RESET</td>" && has "<td>CAP_NET_ADMIN</td>"'
d=$(dom page.html "class=read&text=a_s")
check "class=read and text a_s: A_SET and A_SAME" \
	'[ "$(rows "$d")" -eq 2 ] && has "<td>A_SET</td>" && has "<td>A_SAME</td>"'
d=$(dom page.html "confidence=low")
check "confidence=low: only C_GET" '[ "$(rows "$d")" -eq 1 ] && has "<td>C_GET</td>"'

d=$(dom hostile.html "")
check "markup in a report's strings is shown as text" \
	'[ "$(rows "$d")" -eq 6 ] && has "store: &lt;/script&gt;&lt;!--&lt;script&gt;x at </span>"'

# --- the summary (html/report.json)
d=$(dom summary.html "")
want='<tr class="all" data-total="10" data-unknown="1" data-read="4" data-modify="3" data-admin="2">
<tr data-subsystem="drivers/gpu" data-total="5" data-unknown="1" data-read="2" data-modify="1" data-admin="1">
<tr data-subsystem="fs" data-total="2" data-unknown="0" data-read="0" data-modify="2" data-admin="0">
<tr data-subsystem="net/ipv4" data-total="2" data-unknown="0" data-read="1" data-modify="0" data-admin="1">
<tr data-subsystem="sound/core" data-total="1" data-unknown="0" data-read="1" data-modify="0" data-admin="0">'
got=$(grep -o '<tr[^>]*data-total="[^>]*>' <<<"$d")
check "the chart: commands per class for each subsystem, largest first, and all" '[ "$got" = "$want" ]' ||
	echo "# got: $got"
check "the totals: 5 handlers, 10 commands" 'totals_are handlers=5 commands=10'
check "the direction bits against class table is in the summary" \
	'grep -q "<div id=\"summary\">.*<table id=\"matrix\">.*</div>.*<div id=\"filters\">" <<<"$(tr -d "\n" <<<"$d")"'
check "a handler links to its definition (drivers/gpu/drm/drm_ioctl.c:100 at v6.1.192)" \
	'has "<a href=\"$cgit/drivers/gpu/drm/drm_ioctl.c?h=v6.1.192#n100\" title=\"drivers/gpu/drm/drm_ioctl.c:100\">drm_ioctl</a>"'
check "evidence in another file links there (drm_auth.c:42)" \
	'has "<a href=\"$cgit/drivers/gpu/drm/drm_auth.c?h=v6.1.192#n42\""'
check "a file name is percent-encoded in the link and escaped in the text" \
	'has "<a href=\"$cgit/sound/core/a%20b%231%25%26%3Cx%3E.c?h=v6.1.192#n7\"" &&
	 has ">sound/core/a b#1%&amp;&lt;x&gt;.c:7</a>"'
check "the summary page loads nothing either" '[ -z "$(loaders "$d")" ]'
d=$(dom summary.html "subsystem=net/ipv4")
check "subsystem=net/ipv4: its 2 commands; the chart still shows the whole report" \
	'[ "$(rows "$d")" -eq 2 ] && has "<td>SIOCADDRT</td>" && has "data-subsystem=\"fs\""'
d=$(dom elixir.html "")
check "--source-url: links follow the template ({tag}, {file}, {line})" \
	'has "<a href=\"https://elixir.bootlin.com/linux/v6.1.192/source/drivers/gpu/drm/drm_auth.c#L42\"" &&
	 ! has "$cgit"'

# --- a page of more than 500 commands shows the first 500
{
	printf '{"tool": "ioctl-scan", "kernel": {"release": "6.1.0"}, "handlers": [\n'
	printf ' {"name": "big_ioctl", "kind": "unlocked_ioctl", "file": "drivers/big.c", "commands": [\n'
	for i in $(seq 1 600); do
		printf '  {"name": "BIG_%d", "value": "0x%08x", "mask": "0xffffffff", "dir": "none", "class": "read", "capabilities": [], "evidence": [], "confidence": "high"}%s\n' \
			"$i" "$i" "$([ "$i" -lt 600 ] && echo ,)"
	done
	printf ' ]}], "diagnostics": [], "stats": {}}\n'
} > "$w/big.json"
make_page big.html "$w/big.json"
d=$(dom big.html "")
check "600 commands: the first 500 shown, a button shows all 600" \
	'[ "$(rows "$d")" -eq 500 ] && has "id=\"count\">600 of 600 commands" &&
	 has "<button id=\"more\">the first 500 shown: show all 600</button>"'

# --- the diff page (diff/old.json -> diff/new.json)
d=$(dom diff.html "")
check "diff: all 7 changes shown" '[ "$(rows "$d")" -eq 7 ] && has "id=\"count\">7 of 7 changes"'
check "diff: the summary's totals are those of ioctl-scan diff" \
	'totals_are handlers_added=1 handlers_removed=1 commands_added=2 commands_removed=2 commands_reclassified=3 tighter=3 looser=4'
check "diff: the chart counts changes per kind for the subsystem" \
	'has "<tr data-subsystem=\"drivers\" data-total=\"7\" data-added=\"2\" data-removed=\"2\" data-reclassified=\"3\">"'
check "diff: the class before against after (absent -> unknown, read: C_GET, A_NEW)" \
	'has "<tr><td>absent</td><td class=\"absent\">0</td><td class=\"unknown\">1</td><td class=\"read\">1</td><td class=\"modify\">0</td><td class=\"admin\">0</td></tr>"'
check "diff: new evidence links to the new release (v2.0), old to the old (v1.0)" \
	'has "new store: store to a-&gt;x at </span><code><a href=\"$cgit/drivers/a.c?h=v2.0#n10\"" &&
	 has "old store: store to a-&gt;y at </span><code><a href=\"$cgit/drivers/a.c?h=v1.0#n31\""'
check "diff: the page loads nothing" '[ -z "$(loaders "$d")" ]'
for f in "change=added 2 A_NEW C_GET" "change=removed 2 A_GONE B_GET" "change=reclassified 3 A_GET A_SET A_RESET" \
	"permissions=looser 3 A_SET A_GONE B_GET" "class=admin 1 A_RESET" "class=read&change=reclassified 2 A_GET A_SET" \
	"text=b_ 1 B_GET" "confidence=low 1 C_GET"; do
	set -- $f
	d=$(dom diff.html "$1")
	ok=1
	[ "$(rows "$d")" -eq "$2" ] || ok=0
	for c in "${@:3}"; do has "<td>$c</td>" || ok=0; done
	check "diff, $1: ${*:3}" '[ $ok -eq 1 ]'
	case $1 in
	class=admin) check "diff: a changed capability shows as old -> new" \
		'has "<td>CAP_SYS_ADMIN → CAP_NET_ADMIN</td>"' ;;
	class=read*) check "diff: a changed class shows as old -> new" \
		'has "<td class=\"modify\">read → modify</td>" && has "<td class=\"read\">modify → read</td>"' ;;
	esac
done
