/* What to parse next: the functions whose definitions a command's path
 * needs and the struct members whose installers should be parsed to close
 * them. The walk with no decision (classify_wanted) collects them; the
 * deciding code asks for them here and goes on with what is parsed. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

/* Adds name to the functions wanted, once. */
static void want_function(struct classifier *c, const char *name)
{
	if (name_map_find(&c->wanted_set, name, NULL))
		return;
	strvec_push(c->wanted, name);
	name_map_put(&c->wanted_set, c->wanted->items[c->wanted->len - 1], NULL);
}

static void want_member(wanted_members *w, const char *sname, const char *field, size_t cap)
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

/* A call s (in fn) to a function no parsed file defines: wanted when
 * collecting. Calls in a header function the tree's own code calls pull
 * in the files that define them, as the tree's own calls do (ipmr's
 * SIOCGETSGCNT: ipmr_cache_find() -> mroute_base.h's mr_mfc_find() ->
 * mr_mfc_find_parent() in ipmr_base.c); calls under a header function
 * that another header function calls (accessors within accessors) do
 * not: the parse set stays what the tree's own code leads to. A call
 * that hands on the command (raw_ioctl's default: ipmr_ioctl(sk, cmd,
 * ...)) is the command's dispatch going on, followed in every round. */
void want_callee(struct classifier *c, const struct function_facts *fn, const struct stmt *s)
{
	if (c->wanted && c->via_header <= 1 &&
	    ((c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH) ||
	     command_argument(c, fn, s) >= 0))
		want_function(c, s->callee);
}

/* Are the installers of the member call s goes through wanted, when
 * collecting? The members that calls handing on the command go through,
 * and the others near the command's code, as callees are. */
int seek_member(const struct classifier *c, const struct stmt *s, int hands_on_command)
{
	return s->callee_struct && c->wanted_members &&
		(hands_on_command ||
		 (c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH && !c->via_header));
}

/* Are the installers of a member whose value is handed to a callee as a
 * callback wanted, when collecting? Near the command's code only. */
int seek_callback_member(const struct classifier *c)
{
	return c->wanted_members && c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH &&
	       !c->via_header;
}

/* A member sought (seek_member): its installers wanted, with the largest
 * cap asked for, and the targets installed by name whose files are not
 * parsed yet (missing). */
void want_member_targets(struct classifier *c, const char *sname, const char *field, size_t max,
			 const strvec *missing)
{
	want_member(c->wanted_members, sname, field, max);
	for (size_t i = 0; i < missing->len; i++)
		want_function(c, missing->items[i]);
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
