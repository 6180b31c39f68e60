/* Comparing two reports (report_diff.h). Strictness is the classes' order
 * (ioctl_class.h): unknown (not in the table) < read < modify < admin; a
 * different capability for an admin command moves permissions both ways;
 * the same one checked in the initial user namespace instead of one the
 * driver chooses is stricter (capability, not cap_userns, for a task in a
 * user namespace). */
#include "report_diff.h"

#include <stdlib.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

static char *handler_key(json_t *h)
{
	return xasprintf("%s\t%s", report_str(h, "name"), report_str(h, "kind"));
}

static char *command_key(json_t *c)
{
	return xasprintf("%s\t%s\t%s", report_str(c, "name"), report_str(c, "value"), report_str(c, "mask"));
}

/* key -> object, for one report's handlers or one handler's commands */
static json_t *index_by(json_t *arr, char *(*key)(json_t *))
{
	json_t *idx = json_object(), *v;
	size_t i;

	json_array_foreach(arr, i, v) {
		char *k = key(v);

		json_object_set(idx, k, v);
		free(k);
	}
	return idx;
}

/* How a command's enforcement moves from o to n (either may be NULL). */
static int movement(json_t *o, json_t *n)
{
	enum ioctl_class so = o ? report_class(o) : CLASS_UNKNOWN;
	enum ioctl_class sn = n ? report_class(n) : CLASS_UNKNOWN;

	if (sn > so)
		return DIFF_TIGHTER;
	if (sn < so)
		return DIFF_LOOSER;
	if (so == CLASS_ADMIN && strcmp(report_first_capability(o), report_first_capability(n)))
		return DIFF_TIGHTER | DIFF_LOOSER;
	if (so == CLASS_ADMIN && report_capability_in_user_ns(o) != report_capability_in_user_ns(n))
		return report_capability_in_user_ns(o) ? DIFF_TIGHTER : DIFF_LOOSER;
	return 0;
}

struct totals {
	int added, removed, reclassified, handlers_added, handlers_removed, tighten, loosen;
};

static json_t *change(const char *what, json_t *o, json_t *n, int move)
{
	json_t *c = json_pack("{s:s, s:s, s:s}", "change", what,
			      "name", report_str(n ? n : o, "name"), "value", report_str(n ? n : o, "value"));

	if (o)
		json_object_set(c, "old", o);
	if (n)
		json_object_set(c, "new", n);
	json_object_set_new(c, "permissions", json_string(move == DIFF_TIGHTER ? "tighter" :
							  move == DIFF_LOOSER ? "looser" :
							  move ? "changed" : "same"));
	return c;
}

static void count(struct totals *t, int move)
{
	t->tighten += !!(move & DIFF_TIGHTER);
	t->loosen += !!(move & DIFF_LOOSER);
}

static int reclassified(json_t *o, json_t *n)
{
	return strcmp(report_str(o, "class"), report_str(n, "class")) ||
	       strcmp(report_first_capability(o), report_first_capability(n)) ||
	       report_capability_in_user_ns(o) != report_capability_in_user_ns(n);
}

typedef void pair_fn(json_t *o, json_t *n, void *ctx);

/* Matches the objects of two arrays by key and calls fn once per key: with
 * (old, new) or (old, NULL) in the old array's order, then with (NULL, new)
 * for what only the new array has. */
static void match_by(json_t *old, json_t *new, char *(*key)(json_t *), pair_fn *fn, void *ctx)
{
	json_t *oi = index_by(old, key), *ni = index_by(new, key), *v;
	const char *k;

	json_object_foreach(oi, k, v)
		fn(v, json_object_get(ni, k), ctx);
	json_object_foreach(ni, k, v)
		if (!json_object_get(oi, k))
			fn(NULL, v, ctx);
	json_decref(oi);
	json_decref(ni);
}

struct walk {
	json_t *out;
	struct totals *t;
};

static void command_pair(json_t *o, json_t *n, void *ctx)
{
	struct walk *w = ctx;
	const char *what = !n ? "removed" : !o ? "added" : reclassified(o, n) ? "reclassified" : NULL;
	int move = movement(o, n);

	if (!what)
		return;
	json_array_append_new(w->out, change(what, o, n, move));
	w->t->removed += !n;
	w->t->added += !o;
	w->t->reclassified += o && n;
	count(w->t, move);
}

/* The changes of one handler present in either report. */
static json_t *diff_commands(json_t *oh, json_t *nh, struct totals *t)
{
	struct walk w = { json_array(), t };

	match_by(json_object_get(oh, "commands"), json_object_get(nh, "commands"), command_key, command_pair, &w);
	return w.out;
}

/* A handler with changes; an added one even without (no commands). */
static void handler_pair(json_t *o, json_t *n, void *ctx)
{
	struct walk *w = ctx;
	json_t *h = n ? n : o, *changes = diff_commands(o, n, w->t), *entry;

	w->t->handlers_removed += !n;
	w->t->handlers_added += !o;
	if (!json_array_size(changes) && o) {
		json_decref(changes);
		return;
	}
	entry = json_pack("{s:s, s:s, s:s}", "name", report_str(h, "name"), "kind", report_str(h, "kind"),
			  "file", report_str(h, "file"));
	if (json_object_get(h, "line"))
		json_object_set(entry, "line", json_object_get(h, "line"));
	json_object_set_new(entry, "status", json_string(!o ? "added" : !n ? "removed" : "changed"));
	json_object_set_new(entry, "changes", changes);
	json_array_append_new(w->out, entry);
}

json_t *report_diff(json_t *old, json_t *new, int *moves)
{
	struct totals t = { 0, 0, 0, 0, 0, 0, 0 };
	struct walk w = { json_array(), &t };

	match_by(json_object_get(old, "handlers"), json_object_get(new, "handlers"), handler_key, handler_pair, &w);

	*moves = (t.tighten ? DIFF_TIGHTER : 0) | (t.loosen ? DIFF_LOOSER : 0);
	return json_pack("{s:{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:o}", "summary",
		"old_release", report_str(json_object_get(old, "kernel"), "release"),
		"new_release", report_str(json_object_get(new, "kernel"), "release"),
		"handlers_added", t.handlers_added, "handlers_removed", t.handlers_removed,
		"commands_added", t.added, "commands_removed", t.removed,
		"commands_reclassified", t.reclassified, "tighter", t.tighten, "looser", t.loosen,
		"handlers", w.out);
}
