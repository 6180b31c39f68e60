/* ioctl-scan html REPORT [-o FILE] [--source-url TEMPLATE]: a static review
 * page for a report; ioctl-scan html --diff OLD.json NEW.json: the same
 * page for what a new report changes (report_diff(), as `ioctl-scan diff`
 * reports it).
 *
 * One self-contained file (no network, no framework): a summary first
 * (commands per class, or changes per kind, for each subsystem as bars;
 * the direction bits against the class, or the class before against the
 * class after), then a table of the commands (changes) that sorts by any
 * column and filters by class, confidence, subsystem, capability, free
 * text (and kind of change, permissions), each row's evidence under it. A
 * subsystem is the directory of the handler's file cut to its first two
 * components (drivers/gpu, net/ipv4, sound/core; fs for fs/ioctl.c). Every
 * file:line links to the source at its report's release through a URL
 * template. The filters can be preset from the URL fragment
 * (#class=admin&subsystem=drivers/rtc), which is how the test drives it in
 * a headless browser.
 *
 * The page is data (DATA: what to show and how, the handlers, one row per
 * command or change) and one script that builds everything from it. */
#include "subcommands.h"

#include <stdio.h>
#include <string.h>

#include "report_diff.h"
#include "report_read.h"
#include "util.h"

#define DEFAULT_SOURCE_URL \
	"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree/{file}?h={tag}#n{line}"

struct html_args {
	const char *reports[2], *out, *source_url;
	int diff;
};

static int parse_args(int argc, char **argv, struct html_args *a)
{
	static const char synopsis[] = "html REPORT | --diff OLD.json NEW.json [-o FILE] [--source-url TEMPLATE]";
	int n = 0;

	memset(a, 0, sizeof(*a));
	a->source_url = DEFAULT_SOURCE_URL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			a->out = argv[++i];
		else if (!strcmp(argv[i], "--source-url") && i + 1 < argc)
			a->source_url = argv[++i];
		else if (!strcmp(argv[i], "--diff"))
			a->diff = 1;
		else if (n < 2 && argv[i][0] != '-')
			a->reports[n++] = argv[i];
		else
			return subcommand_usage(synopsis);
	}
	if (n != 1 + a->diff)
		return subcommand_usage(synopsis);
	if (!strstr(a->source_url, "{file}")) {
		fprintf(stderr, "ioctl-scan: --source-url: the template has no {file}\n");
		return 2;
	}
	return 0;
}

/* drivers/rtc/dev.c -> drivers/rtc; fs/ioctl.c -> fs */
static char *subsystem_of(const char *file)
{
	const char *a = strchr(file, '/'), *b = a ? strchr(a + 1, '/') : NULL;

	if (!a)
		return xstrdup(file);
	return xstrndup(file, (size_t)((b ? b : a) - file));
}

/* A handler as the page knows it; rows refer to it by index. */
static json_t *handler_entry(json_t *h)
{
	char *sub = subsystem_of(report_str(h, "file"));
	json_t *e = json_pack("{s:s, s:s, s:s, s:I, s:s}", "name", report_str(h, "name"),
			      "kind", report_str(h, "kind"), "file", report_str(h, "file"),
			      "line", json_integer_value(json_object_get(h, "line")), "subsystem", sub);

	free(sub);
	return e;
}

/* What a row says of a command: its handler (an index), what it is. */
static json_t *command_row(json_t *c, size_t handler)
{
	return json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I}", "h", (json_int_t)handler,
			 "name", report_str(c, "name"), "value", report_str(c, "value"),
			 "mask", report_str(c, "mask"), "dir", report_str(c, "dir"),
			 "class", report_str(c, "class"), "capability", report_first_capability(c),
			 "confidence", report_str(c, "confidence"), "file", report_str(c, "file"),
			 "line", json_integer_value(json_object_get(c, "line")));
}

/* A command of the report, with its evidence and conditional capabilities. */
static json_t *report_row(json_t *c, size_t handler)
{
	json_t *row = command_row(c, handler);

	if (json_array_size(json_object_get(c, "evidence")))
		json_object_set(row, "evidence", json_object_get(c, "evidence"));
	if (json_array_size(json_object_get(c, "conditional_capabilities")))
		json_object_set(row, "conditional", json_object_get(c, "conditional_capabilities"));
	return row;
}

static json_t *class_list(void)
{
	json_t *a = json_array();

	for (int c = 0; c < CLASS_COUNT; c++)
		json_array_append_new(a, json_string(ioctl_class_name(c)));
	return a;
}

/* What the report page shows: its columns, filters, chart, matrix. */
static json_t *report_view(size_t handlers, size_t commands)
{
	return json_pack("{s:s, s:o, s:[[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s]],"
			 " s:[[s,s,o],[s,s,[s,s]],[s,s,n],[s,s,n]],"
			 " s:{s:s, s:s, s:o}, s:{s:s, s:s, s:s, s:[s,s,s,s], s:s, s:o},"
			 " s:[[s,s,I],[s,s,I]]}",
		"noun", "commands", "classes", class_list(),
		"columns", "subsystem", "subsystem", "handler", "handler", "kind", "kind", "name", "command",
		"value", "value", "dir", "dir", "class", "class", "capability", "capability",
		"confidence", "confidence", "file", "where",
		"filters", "class", "class", class_list(), "confidence", "confidence", "high", "low",
		"subsystem", "subsystem", "capability", "capability",
		"chart", "heading", "Commands per class for each subsystem", "key", "class", "cats", class_list(),
		"matrix", "heading", "Direction bits against class", "corner", "_IOC dir", "rows", "dir",
		"row_values", "none", "read", "write", "read_write", "cols", "class", "col_values", class_list(),
		"totals", "handlers", "handlers", (json_int_t)handlers, "commands", "commands", (json_int_t)commands);
}

/* The report page's data: the view, the handlers, one row per command. */
static json_t *report_data(json_t *report, const char *source_url)
{
	json_t *handlers = json_array(), *rows = json_array(), *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		json_array_append_new(handlers, handler_entry(h));
		json_array_foreach(json_object_get(h, "commands"), j, c)
			json_array_append_new(rows, report_row(c, i));
	}
	return json_pack("{s:o, s:s, s:s, s:o, s:o}",
			 "view", report_view(json_array_size(handlers), json_array_size(rows)),
			 "release", report_str(json_object_get(report, "kernel"), "release"),
			 "source_url", source_url, "handlers", handlers, "rows", rows);
}

/* A change's evidence, each item marked with its side (old, new): the
 * page links it to the source of that side's release. */
static void add_sided_evidence(json_t *out, const char *side, json_t *c)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(c, "evidence"), i, e) {
		json_t *copy = json_copy(e);

		json_object_set_new(copy, "side", json_string(side));
		json_array_append_new(out, copy);
	}
}

/* One change as a row: the command as it is now (as it was, when removed),
 * its class, capability and confidence before where it was reclassified,
 * the class on each side for the matrix (absent where it is not there),
 * and the evidence of both sides. */
static json_t *change_row(json_t *ch, size_t handler)
{
	json_t *o = json_object_get(ch, "old"), *n = json_object_get(ch, "new");
	json_t *row = command_row(n ? n : o, handler), *ev = json_array();

	json_object_set_new(row, "change", json_string(report_str(ch, "change")));
	json_object_set_new(row, "permissions", json_string(report_str(ch, "permissions")));
	json_object_set_new(row, "from", json_string(o ? report_str(o, "class") : "absent"));
	json_object_set_new(row, "to", json_string(n ? report_str(n, "class") : "absent"));
	if (!n)
		json_object_set_new(row, "side", json_string("old"));
	if (o && n) {
		json_object_set_new(row, "old_class", json_string(report_str(o, "class")));
		json_object_set_new(row, "old_capability", json_string(report_first_capability(o)));
		json_object_set_new(row, "old_confidence", json_string(report_str(o, "confidence")));
	}
	add_sided_evidence(ev, "old", o);
	add_sided_evidence(ev, "new", n);
	json_object_set_new(row, "evidence", ev);
	return row;
}

/* The diff's summary as the page's totals: [key, label, number]. */
static json_t *summary_totals(json_t *summary)
{
	json_t *totals = json_array(), *v;
	const char *k;

	json_object_foreach(summary, k, v) {
		char *label = xstrdup(k);

		if (!json_is_integer(v)) {
			free(label);
			continue;
		}
		for (char *p = label; *p; p++)
			if (*p == '_')
				*p = ' ';
		json_array_append_new(totals, json_pack("[s, s, O]", k, label, v));
		free(label);
	}
	return totals;
}

/* What the diff page shows: its columns, filters, chart, matrix. */
static json_t *diff_view(json_t *summary)
{
	json_t *states = class_list(), *view;

	json_array_insert_new(states, 0, json_string("absent"));
	view = json_pack("{s:s, s:o, s:[[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s],[s,s]],"
			 " s:[[s,s,[s,s,s]],[s,s,[s,s,s,s]],[s,s,o],[s,s,[s,s]],[s,s,n],[s,s,n]],"
			 " s:{s:s, s:s, s:[s,s,s]}, s:{s:s, s:s, s:s, s:O, s:s, s:O}, s:o}",
		"noun", "changes", "classes", class_list(),
		"columns", "subsystem", "subsystem", "handler", "handler", "kind", "kind", "name", "command",
		"value", "value", "change", "change", "class", "class", "capability", "capability",
		"permissions", "permissions", "confidence", "confidence", "file", "where",
		"filters", "change", "change", "added", "removed", "reclassified",
		"permissions", "permissions", "tighter", "looser", "changed", "same",
		"class", "class", class_list(), "confidence", "confidence", "high", "low",
		"subsystem", "subsystem", "capability", "capability",
		"chart", "heading", "Changes per subsystem", "key", "change", "cats", "added", "removed", "reclassified",
		"matrix", "heading", "Class before and after", "corner", "old \\ new", "rows", "from",
		"row_values", states, "cols", "to", "col_values", states,
		"totals", summary_totals(summary));
	json_decref(states);
	return view;
}

/* The diff page's data: the view, the handlers with changes (those
 * removed linked to the old release), one row per change. */
static json_t *diff_data(json_t *old, json_t *new, const char *source_url)
{
	int moves;
	json_t *diff = report_diff(old, new, &moves), *handlers = json_array(), *rows = json_array(), *h, *ch;
	json_t *summary = json_object_get(diff, "summary"), *data;
	size_t i, j;

	json_array_foreach(json_object_get(diff, "handlers"), i, h) {
		json_t *e = handler_entry(h);

		if (!strcmp(report_str(h, "status"), "removed"))
			json_object_set_new(e, "side", json_string("old"));
		json_array_append_new(handlers, e);
		json_array_foreach(json_object_get(h, "changes"), j, ch)
			json_array_append_new(rows, change_row(ch, i));
	}
	data = json_pack("{s:o, s:s, s:s, s:s, s:o, s:o}", "view", diff_view(summary),
			 "old_release", report_str(summary, "old_release"),
			 "release", report_str(summary, "new_release"),
			 "source_url", source_url, "handlers", handlers, "rows", rows);
	json_decref(diff);
	return data;
}

/* JSON inside <script>: no '<' at all, so that nothing in a string can end
 * the element or open a comment (JSON has '<' only inside strings). */
static void put_script_json(FILE *fp, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);

	for (const char *p = s; p && *p; p++) {
		if (*p == '<')
			fputs("\\u003c", fp);
		else
			fputc(*p, fp);
	}
	free(s);
}

static void put_html(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp);
		}
	}
}

static const char page_style[] =
"<style>\n"
"body{font:14px sans-serif;margin:1em}table{border-collapse:collapse}"
"td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}"
"th{background:#eee;cursor:pointer}tr.ev td{background:#fafafa;font-size:12px}"
"#rows{table-layout:fixed;width:100%}#rows td{overflow-wrap:anywhere}"
"#rows th[data-k=value],#rows th[data-k=change],#rows th[data-k=permissions],#rows th[data-k=class]{width:6.5em}"
"#rows th[data-k=dir],#rows th[data-k=confidence]{width:5.5em}"
"#rows th[data-k=kind],#rows th[data-k=capability]{width:9em}#rows th[data-k=subsystem]{width:7em}"
".read{color:#060}.modify{color:#a50}.admin{color:#a00}.unknown{color:#666}"
".added{color:#060}.removed{color:#a00}.reclassified{color:#a50}"
".tighter{color:#a00}.looser{color:#a50}.changed{color:#a0a}"
"#filters label{margin-right:1em}code{font-size:12px}a{color:inherit}\n"
"#summary{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}"
"#summary h2{margin:0 0 .3em}#totals{margin:0 0 .5em;padding:0;max-width:44em}"
"#totals li{display:inline-block;margin-right:1.2em;white-space:nowrap}#totals b{font-size:16px}"
".scroll{max-height:24em;overflow-y:auto;overflow-x:hidden;border:1px solid #ccc}"
"#chart td,#chart th{border:0;padding:1px 6px;text-align:right}"
"#chart thead th{position:sticky;top:0}#chart tbody th{background:none;text-align:left;font-weight:normal}"
"#chart tbody tr{cursor:pointer}#chart tbody tr:hover{background:#eef}#chart tr.all th{font-weight:bold}"
".bar{display:flex;width:300px;height:12px}.seg{display:block;height:100%}.zero{color:#ccc}"
".seg.read,.seg.added{background:#5a5}.seg.modify,.seg.reclassified{background:#e93}"
".seg.admin,.seg.removed{background:#c44}.seg.unknown{background:#aaa}\n"
"</style>\n";

static const char page_body[] =
"<div id=\"summary\">\n"
"<div><h2 id=\"chart-heading\"></h2><ul id=\"totals\"></ul>"
"<div class=\"scroll\"><table id=\"chart\"><thead></thead><tbody></tbody></table></div></div>\n"
"<div><h2 id=\"matrix-heading\"></h2><table id=\"matrix\"></table></div>\n"
"</div>\n"
"<h2>Filters</h2>\n<div id=\"filters\"></div>\n"
"<h2 id=\"rows-heading\"></h2>\n<table id=\"rows\"><thead><tr></tr></thead><tbody></tbody></table>\n"
"<p><button id=\"more\" hidden></button></p>\n"
"<script>\n"
"var V = DATA.view, rows = DATA.rows, sortKey = 'subsystem', sortDir = 1, limit = 500;\n"
"rows.forEach(function (r) { var h = DATA.handlers[r.h]; r.handler = h.name; r.kind = h.kind;"
" r.subsystem = h.subsystem; r.hfile = h.file; r.hline = h.line; r.hside = h.side; });\n"
"function el(t, txt, cls) { var e = document.createElement(t); if (txt !== undefined) e.textContent = txt;"
" if (cls) e.className = cls; return e; }\n"
"function byId(id) { return document.getElementById(id); }\n"
/* links to the source: {file} percent-encoded per path component */
"function tag(rel) { return 'v' + rel.replace(/\\.0(?=$|-)/, ''); }\n"
"function put(t, k, v) { return t.split('{' + k + '}').join(v); }\n"
"function linkTarget(file, line, side) { var rel = side === 'old' ? DATA.old_release : DATA.release;"
" var u = put(DATA.source_url, 'file', file.split('/').map(encodeURIComponent).join('/'));"
" u = put(put(u, 'line', String(line)), 'release', encodeURIComponent(rel));"
" return put(u, 'tag', encodeURIComponent(tag(rel))); }\n"
"function link(text, file, line, side) { if (!file || !line) return el('span', text);"
" var a = el('a', text); a.href = linkTarget(file, line, side); a.title = file + ':' + line; return a; }\n"
/* a value that changed shows as old -> new */
"function display(r, k) { var o = r['old_' + k]; return o !== undefined && o !== r[k] ?"
" (o || '\\u2014') + ' \\u2192 ' + (r[k] || '\\u2014') : r[k]; }\n"
"function has(r, k, v) { return r[k] === v || r['old_' + k] === v; }\n"
"function val(k) { return byId('f-' + k).value; }\n"
"function matches(r) { var t = val('text').toLowerCase();"
" return V.filters.every(function (f) { var v = val(f[0]); return !v || has(r, f[0], v); }) &&"
" (!t || (r.name + ' ' + r.handler + ' ' + r.file).toLowerCase().indexOf(t) >= 0); }\n"
"function sortVal(r, k) { return k === 'class' ? V.classes.indexOf(r['class']) : r[k]; }\n"
"function cell(r, k) { var td = el('td');"
" if (k === 'handler') td.appendChild(link(r.handler, r.hfile, r.hline, r.hside));"
" else if (k === 'file') td.appendChild(link(r.file ? r.file + ':' + r.line : '', r.file, r.line, r.side));"
" else if (k === 'value') td.textContent = r.value + (r.mask !== '0xffffffff' ? ' / ' + r.mask : '');"
" else { td.textContent = display(r, k);"
"  if (k === 'class' || k === 'change' || k === 'permissions') td.className = r[k] || r['old_' + k] || ''; }"
" return td; }\n"
"function evidenceRow(r) { var ev = el('tr', undefined, 'ev'), td = el('td'); td.colSpan = V.columns.length;"
" (r.evidence || []).forEach(function (e) { var d = el('div'), c = el('code');"
"  d.appendChild(el('span', (e.side ? e.side + ' ' : '') + e.kind + ': ' + e.what + ' at '));"
"  c.appendChild(link(e.file + ':' + e.line, e.file, e.line, e.side)); d.appendChild(c); td.appendChild(d); });"
" (r.conditional || []).forEach(function (c) { td.appendChild(el('div', 'conditional: ' + JSON.stringify(c))); });"
" ev.appendChild(td); return ev; }\n"
"function render() { var tb = document.querySelector('#rows tbody'), f = document.createDocumentFragment(), n = 0;"
" rows.slice().sort(function (a, b) { var x = sortVal(a, sortKey), y = sortVal(b, sortKey);"
"  return (x < y ? -1 : x > y ? 1 : 0) * sortDir; }).forEach(function (r) {"
"  if (!matches(r) || n++ >= limit) return;"
"  var tr = el('tr', undefined, 'cmd'); V.columns.forEach(function (c) { tr.appendChild(cell(r, c[0])); });"
"  f.appendChild(tr); f.appendChild(evidenceRow(r)); });"
" tb.textContent = ''; tb.appendChild(f);"
" byId('count').textContent = n + ' of ' + rows.length + ' ' + V.noun;"
" byId('more').textContent = n > limit ? 'the first ' + limit + ' shown: show all ' + n : '';"
" byId('more').hidden = n <= limit; }\n"
"function present(k) { var seen = {}; rows.forEach(function (r) { if (r[k]) seen[r[k]] = 1;"
" if (r['old_' + k]) seen[r['old_' + k]] = 1; }); return Object.keys(seen).sort(); }\n"
"function filters() { var box = byId('filters');"
" V.filters.concat([['text', 'text']]).forEach(function (f) { var l = el('label', f[1] + ' '), s;"
"  if (f[0] === 'text') { s = el('input'); s.size = 20; }"
"  else { s = el('select'); s.appendChild(el('option', 'all')).value = '';"
"   (f[2] || present(f[0])).forEach(function (v) { s.appendChild(el('option', v)); }); }"
"  s.id = 'f-' + f[0]; s.addEventListener('input', render); l.appendChild(s); box.appendChild(l); });"
" box.appendChild(el('span')).id = 'count'; }\n"
"function head() { var tr = document.querySelector('#rows thead tr'); byId('rows-heading').textContent ="
" V.noun[0].toUpperCase() + V.noun.slice(1);"
" V.columns.forEach(function (c) { var th = el('th', c[1]); th.setAttribute('data-k', c[0]);"
"  th.addEventListener('click', function () { sortDir = c[0] === sortKey ? -sortDir : 1; sortKey = c[0]; render(); });"
"  tr.appendChild(th); }); }\n"
/* the summary: totals, a bar per subsystem (numbers in data- attributes), a matrix */
"function totals() { var ul = byId('totals');"
" V.totals.forEach(function (t) { var li = el('li', t[1] + ' '); li.setAttribute('data-k', t[0]);"
"  li.setAttribute('data-n', t[2]); li.appendChild(el('b', String(t[2]))); ul.appendChild(li); }); }\n"
"function chartRow(name, n, scale) { var c = V.chart, tr = el('tr'), bar = el('div', undefined, 'bar'), td = el('td'),"
" sum = c.cats.reduce(function (a, k) { return a + (n[k] || 0); }, 0);"
" if (name) tr.setAttribute('data-subsystem', name); else tr.className = 'all';"
" tr.setAttribute('data-total', sum); c.cats.forEach(function (k) { tr.setAttribute('data-' + k, n[k] || 0); });"
" tr.appendChild(el('th', name || 'all')); tr.appendChild(el('td', String(sum)));"
" c.cats.forEach(function (k) { tr.appendChild(el('td', String(n[k] || 0), n[k] ? k : 'zero'));"
"  if (!n[k]) return; var s = el('span', undefined, 'seg ' + k);"
"  s.style.width = (100 * n[k] / (scale || sum)) + '%'; s.title = k + ': ' + n[k]; bar.appendChild(s); });"
" td.appendChild(bar); tr.appendChild(td);"
" tr.addEventListener('click', function () { byId('f-subsystem').value = name; render(); });"
" return tr; }\n"
"function chart() { var c = V.chart, by = {}, all = {}, hr = el('tr'), tb = document.querySelector('#chart tbody');"
" byId('chart-heading').textContent = c.heading;"
" rows.forEach(function (r) { var s = by[r.subsystem] || (by[r.subsystem] = {}), k = r[c.key];"
"  s[k] = (s[k] || 0) + 1; all[k] = (all[k] || 0) + 1; });"
" var sum = function (n) { return c.cats.reduce(function (a, k) { return a + (n[k] || 0); }, 0); };"
" var subs = Object.keys(by).sort(function (a, b) { return sum(by[b]) - sum(by[a]) || (a < b ? -1 : 1); });"
" ['subsystem', V.noun].concat(c.cats, ['']).forEach(function (h) { hr.appendChild(el('th', h)); });"
" document.querySelector('#chart thead').appendChild(hr); tb.appendChild(chartRow('', all, 0));"
" subs.forEach(function (s) { tb.appendChild(chartRow(s, by[s], sum(by[subs[0]]))); }); }\n"
"function matrix() { var m = V.matrix, t = byId('matrix'), hr = el('tr');"
" byId('matrix-heading').textContent = m.heading; hr.appendChild(el('th', m.corner));"
" m.col_values.forEach(function (c) { hr.appendChild(el('th', c)); }); t.appendChild(hr);"
" m.row_values.forEach(function (d) { var tr = el('tr'); tr.appendChild(el('td', d));"
"  m.col_values.forEach(function (c) { tr.appendChild(el('td', String(rows.filter(function (r) {"
"   return r[m.rows] === d && r[m.cols] === c; }).length), c)); }); t.appendChild(tr); }); }\n"
"totals(); chart(); matrix(); filters(); head();\n"
"byId('more').addEventListener('click', function () { limit = Infinity; render(); });\n"
"location.hash.replace(/^#/, '').split('&').forEach(function (kv) { var p = kv.split('=');"
" var s = byId('f-' + p[0]); if (s && p.length === 2) s.value = decodeURIComponent(p[1]); });\n"
"render();\n"
"</script></body></html>\n";

static void write_page(FILE *fp, const char *title, json_t *data)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", fp);
	put_html(fp, title);
	fprintf(fp, "</title>\n%s</head><body>\n<h1>", page_style);
	put_html(fp, title);
	fputs("</h1>\n<script>var DATA = ", fp);
	put_script_json(fp, data);
	fputs(";</script>\n", fp);
	fputs(page_body, fp);
}

/* The page's data and title, from one report or two. */
static json_t *page_data(const struct html_args *a, char **title)
{
	json_t *r[2] = { NULL, NULL }, *data = NULL;

	for (int i = 0; i < 1 + a->diff; i++)
		if (!(r[i] = report_load(a->reports[i])))
			goto out;
	if (a->diff) {
		data = diff_data(r[0], r[1], a->source_url);
		*title = xasprintf("ioctl-scan review: Linux %s \u2192 %s", report_str(data, "old_release"),
				   report_str(data, "release"));
	} else {
		data = report_data(r[0], a->source_url);
		*title = xasprintf("ioctl-scan review: Linux %s", report_str(data, "release"));
	}
out:
	json_decref(r[0]);
	json_decref(r[1]);
	return data;
}

int cmd_html(int argc, char **argv)
{
	struct html_args a;
	struct atomic_file af;
	json_t *data;
	char *title;

	if (parse_args(argc, argv, &a))
		return 2;
	data = page_data(&a, &title);
	if (!data)
		return 2;
	if (a.out && atomic_open(&af, a.out)) {
		json_decref(data);
		free(title);
		return 2;
	}
	write_page(a.out ? af.fp : stdout, title, data);
	free(title);
	json_decref(data);
	if (a.out && atomic_commit(&af)) {
		fprintf(stderr, "ioctl-scan: cannot write %s\n", a.out);
		return 2;
	}
	return 0;
}
