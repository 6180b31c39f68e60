#!/bin/bash
# The review page, loaded in a real headless browser (Debian's chromium):
# built from the diff fixture's second report (6 commands: A_GET modify
# with evidence "store to a->x" at drivers/a.c:10, A_SET read, A_RESET
# admin CAP_NET_ADMIN, A_SAME read, A_NEW read, C_GET unknown), filtered
# through the URL fragment, and checked on the DOM the page builds.
set -u
w=$WORK/html
mkdir -p "$w"
"$ANALYZER/ioctl-scan" html "$ANALYZER/tests/fixtures/diff/new.json" -o "$w/page.html"
if grep -qiE '(src|href)=' "$w/page.html"; then
	echo "not ok - the page loads something from outside itself"
else
	echo "ok - the page is self-contained (no src or href)"
fi
browser=$(command -v chromium)
if [ -z "$browser" ]; then
	echo "not ok - no chromium to load the page in (make deps installs it)"
	exit 0
fi
dom() { timeout 60 "$browser" --headless --disable-gpu --no-sandbox --dump-dom "file://$w/page.html#$1" 2>/dev/null; }
rows() { grep -o '<tr class="cmd">' <<<"$1" | wc -l; }

d=$(dom "")
[ "$(rows "$d")" -eq 6 ] && grep -q 'id="count">6 of 6 commands' <<<"$d" &&
	echo "ok - unfiltered: all 6 commands shown" || echo "not ok - unfiltered: $(rows "$d") rows"
grep -q 'store: store to a-&gt;x at </span><code>drivers/a.c:10</code>' <<<"$d" &&
	echo "ok - a command's evidence is shown with file:line" || echo "not ok - evidence not shown"

d=$(dom "class=admin")
[ "$(rows "$d")" -eq 1 ] && grep -q '<td>A_RESET</td>' <<<"$d" && grep -q '<td>CAP_NET_ADMIN</td>' <<<"$d" &&
	echo "ok - class=admin: only A_RESET, with its capability" || echo "not ok - class=admin: $(rows "$d") rows"
d=$(dom "class=read&text=a_s")
[ "$(rows "$d")" -eq 2 ] && grep -q '<td>A_SET</td>' <<<"$d" && grep -q '<td>A_SAME</td>' <<<"$d" &&
	echo "ok - class=read and text a_s: A_SET and A_SAME" || echo "not ok - class+text: $(rows "$d") rows"
d=$(dom "confidence=low")
[ "$(rows "$d")" -eq 1 ] && grep -q '<td>C_GET</td>' <<<"$d" &&
	echo "ok - confidence=low: only C_GET" || echo "not ok - confidence=low: $(rows "$d") rows"
# the direction-bits table: A_GET (dir read) is modify, C_GET (read) unknown
grep -q '<tr><td>read</td><td class="read">0</td><td class="modify">1</td><td class="admin">0</td><td class="unknown">1</td></tr>' <<<"$d" &&
	echo "ok - the direction bits against class table counts every command" ||
	echo "not ok - direction table: $(grep -o '<table id="dirclass">.*</table>' <<<"$d" | head -c 400)"
