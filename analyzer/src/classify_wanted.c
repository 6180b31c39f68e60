/* What to parse next: the functions whose definitions a command's path
 * needs and the struct members whose installers should be parsed to close
 * them. The walk with no decision (classify_wanted) collects them; the
 * deciding code asks for them here and goes on with what is parsed. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

/* Adds name to the functions wanted, once. */
void want_function(struct classifier *c, const char *name)
{
	if (name_map_find(&c->wanted_set, name, NULL))
		return;
	strvec_push(c->wanted, name);
	name_map_put(&c->wanted_set, c->wanted->items[c->wanted->len - 1], NULL);
}

void want_member(wanted_members *w, const char *sname, const char *field, size_t cap)
{
	struct wanted_member m;

	for (size_t i = 0; i < w->len; i++) {
		if (!strcmp(w->items[i].sname, sname) && !strcmp(w->items[i].field, field)) {
			if (w->items[i].cap < cap)
				w->items[i].cap = cap;
			return;
		}
	}
	m.sname = xstrdup(sname);
	m.field = xstrdup(field);
	m.cap = cap;
	vec_push(w, m);
}

void classify_wanted(struct scan_result *r, const struct function_index *fi,
		     const struct knowledge *kn, int callees, strvec *wanted,
		     wanted_members *members)
{
	struct classifier *c = xcalloc(1, sizeof(*c));

	c->fi = fi;
	c->kn = kn;
	c->want_callees = callees;
	c->wanted = wanted;
	for (size_t i = 0; i < wanted->len; i++)
		name_map_put(&c->wanted_set, wanted->items[i], NULL);
	c->wanted_members = members;
	walk_commands(c, r, 0, WALK_ALL);
	classifier_reset(c);
	name_map_free(&c->wanted_set);
	name_map_free(&c->apis);
	free(c);
}
