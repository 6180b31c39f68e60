/* ioctl-scan html REPORT [-o FILE]: a static review page for a report.
 *
 * One self-contained file (no network, no framework): the report's
 * commands in a table that sorts by any column and filters by class,
 * confidence, subsystem (the top two directories of the handler's file),
 * capability and free text; each command's evidence with file:line under
 * its row; and the direction bits against the class. The filters can be
 * preset from the URL fragment (#class=admin&subsystem=drivers/rtc), which
 * is how the test drives it in a headless browser. */
#include "subcommands.h"

#include <stdio.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

/* drivers/rtc/dev.c -> drivers/rtc; fs/ioctl.c -> fs */
static char *subsystem_of(const char *file)
{
	const char *a = strchr(file, '/'), *b = a ? strchr(a + 1, '/') : NULL;

	if (!a)
		return xstrdup(file);
	return xstrndup(file, (size_t)((b ? b : a) - file));
}

/* The page's data: one flat row per command (evidence included). */
static json_t *rows_of(json_t *report)
{
	json_t *rows = json_array(), *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h)
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			char *sub = subsystem_of(report_str(h, "file"));
			json_t *caps = json_object_get(c, "capabilities");

			json_array_append_new(rows, json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:O, s:O}",
				"handler", report_str(h, "name"), "kind", report_str(h, "kind"),
				"subsystem", sub, "name", report_str(c, "name"),
				"value", report_str(c, "value"), "mask", report_str(c, "mask"),
				"dir", report_str(c, "dir"), "class", report_str(c, "class"),
				"confidence", report_str(c, "confidence"), "file", report_str(c, "file"),
				"line", json_integer_value(json_object_get(c, "line")),
				"capability", json_array_size(caps) ?
					json_string_value(json_array_get(caps, 0)) : "",
				"conditional", json_object_get(c, "conditional_capabilities") ?
					json_object_get(c, "conditional_capabilities") : json_null(),
				"evidence", json_object_get(c, "evidence") ?
					json_object_get(c, "evidence") : json_null()));
			free(sub);
		}
	return rows;
}

/* JSON inside <script>: "</" must not end the element. */
static void put_script_json(FILE *fp, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);

	for (const char *p = s; p && *p; p++) {
		if (p[0] == '<' && p[1] == '/')
			fputs("<\\", fp);
		else
			fputc(*p, fp);
	}
	free(s);
}

static const char page_head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>ioctl-scan review</title>\n<style>\n"
"body{font:14px sans-serif;margin:1em}table{border-collapse:collapse}"
"td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}"
"th{background:#eee;cursor:pointer}tr.ev td{background:#fafafa;font-size:12px}"
".read{color:#060}.modify{color:#a50}.admin{color:#a00}.unknown{color:#666}"
"#filters label{margin-right:1em}code{font-size:12px}\n</style></head><body>\n";

static const char page_body[] =
"<div id=\"filters\">\n"
"<label>class <select id=\"f-class\"><option value=\"\">all</option><option>read</option>"
"<option>modify</option><option>admin</option><option>unknown</option></select></label>\n"
"<label>confidence <select id=\"f-confidence\"><option value=\"\">all</option>"
"<option>high</option><option>low</option></select></label>\n"
"<label>subsystem <select id=\"f-subsystem\"><option value=\"\">all</option></select></label>\n"
"<label>capability <select id=\"f-capability\"><option value=\"\">all</option></select></label>\n"
"<label>text <input id=\"f-text\" size=\"20\"></label>\n"
"<span id=\"count\"></span></div>\n"
"<h2>Commands</h2>\n<table id=\"commands\"><thead><tr>"
"<th data-k=\"subsystem\">subsystem</th><th data-k=\"handler\">handler</th>"
"<th data-k=\"kind\">kind</th><th data-k=\"name\">command</th><th data-k=\"value\">value</th>"
"<th data-k=\"dir\">dir</th><th data-k=\"class\">class</th><th data-k=\"capability\">capability</th>"
"<th data-k=\"confidence\">confidence</th><th data-k=\"file\">where</th></tr></thead>"
"<tbody></tbody></table>\n"
"<h2>Direction bits against class</h2>\n<table id=\"dirclass\"></table>\n"
"<script>\n"
"var rows = DATA.rows, sortKey = 'subsystem', sortDir = 1;\n"
"function el(t, txt, cls) { var e = document.createElement(t); if (txt !== undefined) e.textContent = txt;"
" if (cls) e.className = cls; return e; }\n"
"function fill(id, key) { var s = document.getElementById(id), seen = {};"
" rows.forEach(function (r) { if (r[key]) seen[r[key]] = 1; });"
" Object.keys(seen).sort().forEach(function (v) { s.appendChild(el('option', v)); }); }\n"
"function val(id) { return document.getElementById(id).value; }\n"
"function matches(r) { var t = val('f-text').toLowerCase();"
" return (!val('f-class') || r['class'] === val('f-class')) &&"
" (!val('f-confidence') || r.confidence === val('f-confidence')) &&"
" (!val('f-subsystem') || r.subsystem === val('f-subsystem')) &&"
" (!val('f-capability') || r.capability === val('f-capability')) &&"
" (!t || (r.name + ' ' + r.handler + ' ' + r.file).toLowerCase().indexOf(t) >= 0); }\n"
"function render() { var tb = document.querySelector('#commands tbody'), n = 0;"
" tb.textContent = '';"
" rows.slice().sort(function (a, b) { return (a[sortKey] < b[sortKey] ? -1 :"
" a[sortKey] > b[sortKey] ? 1 : 0) * sortDir; }).forEach(function (r) {"
"  if (!matches(r)) return; n++;"
"  var tr = el('tr'); tr.className = 'cmd';"
"  [r.subsystem, r.handler, r.kind, r.name, r.value + (r.mask !== '0xffffffff' ? ' / ' + r.mask : ''),"
"   r.dir].forEach(function (v) { tr.appendChild(el('td', v)); });"
"  tr.appendChild(el('td', r['class'], r['class'])); tr.appendChild(el('td', r.capability));"
"  tr.appendChild(el('td', r.confidence)); tr.appendChild(el('td', r.file + ':' + r.line));"
"  tb.appendChild(tr);"
"  var ev = el('tr'), td = el('td'); ev.className = 'ev'; td.colSpan = 10;"
"  (r.evidence || []).forEach(function (e) { var d = el('div');"
"   d.appendChild(el('span', e.kind + ': ' + e.what + ' at '));"
"   d.appendChild(el('code', e.file + ':' + e.line)); td.appendChild(d); });"
"  (r.conditional || []).forEach(function (c) { td.appendChild(el('div', 'conditional: ' + JSON.stringify(c))); });"
"  ev.appendChild(td); tb.appendChild(ev); });"
" document.getElementById('count').textContent = n + ' of ' + rows.length + ' commands'; }\n"
"function dirclass() { var t = document.getElementById('dirclass'), cls = ['read', 'modify', 'admin', 'unknown'],"
" dirs = ['none', 'read', 'write', 'read_write'], hr = el('tr'); hr.appendChild(el('th', '_IOC dir'));"
" cls.forEach(function (c) { hr.appendChild(el('th', c)); }); t.appendChild(hr);"
" dirs.forEach(function (d) { var tr = el('tr'); tr.appendChild(el('td', d));"
"  cls.forEach(function (c) { tr.appendChild(el('td', String(rows.filter(function (r) {"
"   return r.dir === d && r['class'] === c; }).length), c)); }); t.appendChild(tr); }); }\n"
"fill('f-subsystem', 'subsystem'); fill('f-capability', 'capability');\n"
"location.hash.replace(/^#/, '').split('&').forEach(function (kv) { var p = kv.split('=');"
" var s = document.getElementById('f-' + p[0]); if (s && p.length === 2) s.value = decodeURIComponent(p[1]); });\n"
"['f-class', 'f-confidence', 'f-subsystem', 'f-capability', 'f-text'].forEach(function (id) {"
" document.getElementById(id).addEventListener('input', render); });\n"
"document.querySelectorAll('#commands th').forEach(function (th) { th.addEventListener('click', function () {"
" var k = th.getAttribute('data-k'); sortDir = k === sortKey ? -sortDir : 1; sortKey = k; render(); }); });\n"
"render(); dirclass();\n"
"</script></body></html>\n";

int cmd_html(int argc, char **argv)
{
	const char *path, *out;
	struct atomic_file af;
	json_t *r, *data;
	FILE *fp = stdout;

	if (report_args(argc, argv, "html REPORT [-o FILE]", &path, &out))
		return 2;
	r = report_load(path);
	if (!r)
		return 2;
	if (out) {
		if (atomic_open(&af, out))
			return 2;
		fp = af.fp;
	}
	data = json_pack("{s:o, s:s}", "rows", rows_of(r), "release",
			 report_str(json_object_get(r, "kernel"), "release"));
	fputs(page_head, fp);
	fprintf(fp, "<h1>ioctl-scan review: Linux %s</h1>\n",
		report_str(json_object_get(r, "kernel"), "release"));
	fputs("<script>var DATA = ", fp);
	put_script_json(fp, data);
	fputs(";</script>\n", fp);
	fputs(page_body, fp);
	json_decref(data);
	json_decref(r);
	if (out && atomic_commit(&af)) {
		fprintf(stderr, "ioctl-scan: cannot write %s\n", out);
		return 2;
	}
	return 0;
}
