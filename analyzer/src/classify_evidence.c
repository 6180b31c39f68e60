/* The effect set and the decision: effects recorded once per place and
 * kind, the class the effects on a command's path make (doc/classes.md),
 * and the evidence shown for it in the report. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const effect_kind_names[] = {
	[EF_CAP_GUARD] = "capability_check", [EF_CAP_COND] = "conditional_capability",
	[EF_STORE] = "store", [EF_API_MODIFY] = "modifying_call", [EF_LINK] = "modifying_call",
	[EF_HARDWARE] = "hardware_write", [EF_LIFETIME] = "object_lifetime",
	[EF_MODE_WRITE] = "fmode_write_check", [EF_USER_OUT] = "user_copy_out",
	[EF_USER_IN] = "user_copy_in", [EF_UNKNOWN] = "unanalysed_call",
	[EF_UNFOLLOWED] = "unfollowed_flow",
	[EF_RESOLVED] = "indirect_call_resolved", [EF_QUERY] = "query_request",
	[EF_REF_GET] = "reference_get", [EF_REF_PUT] = "object_lifetime",
};

void effect_add_mapped(effect_list *l, enum effect_kind k, char *what, const char *file,
		       unsigned line, const strvec *caps, int param, const signed char *cbmap)
{
	struct effect e = { .kind = k, .what = what, .file = file, .line = line, .param = param };
	int same_kind = 0;

	if (cbmap)
		memcpy(e.cbmap, cbmap, sizeof(e.cbmap));
	for (size_t i = 0; i < l->len; i++) {
		struct effect *o = &l->items[i];

		if (o->kind != k || o->param != param || memcmp(o->cbmap, e.cbmap, sizeof(e.cbmap)))
			continue;
		same_kind++;
		if (o->line == line && !strcmp(o->file, file)) {
			for (size_t j = 0; caps && j < caps->len; j++)
				if (!strvec_contains(&o->caps, caps->items[j]))
					strvec_push(&o->caps, caps->items[j]);
			free(what);
			return;
		}
	}
	if (same_kind >= MAX_PER_KIND && !(caps && caps->len)) {
		free(what);
		return;
	}

	for (size_t i = 0; caps && i < caps->len; i++)
		strvec_push(&e.caps, caps->items[i]);
	vec_push(l, e);
}

void effect_add_param(effect_list *l, enum effect_kind k, char *what, const char *file,
		      unsigned line, const strvec *caps, int param)
{
	effect_add_mapped(l, k, what, file, line, caps, param, NULL);
}

void effect_add(effect_list *l, enum effect_kind k, char *what, const char *file,
		unsigned line, const strvec *caps)
{
	effect_add_param(l, k, what, file, line, caps, -1);
}

void effects_free(effect_list *l)
{
	for (size_t i = 0; i < l->len; i++) {
		free(l->items[i].what);
		strvec_clear(&l->items[i].caps);
	}
	vec_free(l);
}

/* Keeps the effects of l that keep() accepts, freeing the others. */
void effects_filter(effect_list *l, int (*keep)(const struct effect *, const void *),
		    const void *ctx)
{
	size_t out = 0;

	for (size_t i = 0; i < l->len; i++) {
		struct effect *e = &l->items[i];

		if (!keep(e, ctx)) {
			free(e->what);
			strvec_clear(&e->caps);
			continue;
		}
		l->items[out++] = *e;
	}
	l->len = out;
}

static void add_evidence(struct command *cmd, const struct effect *e)
{
	struct evidence ev = {
		.kind = xstrdup(effect_kind_names[e->kind]),
		.what = xstrdup(e->what),
		.file = xstrdup(e->file),
		.line = e->line,
	};

	for (size_t i = 0; i < cmd->evidence.len; i++) {
		const struct evidence *o = &cmd->evidence.items[i];

		if (!strcmp(o->kind, ev.kind) && !strcmp(o->file, ev.file) && o->line == ev.line) {
			free(ev.kind);
			free(ev.what);
			free(ev.file);
			return;
		}
	}
	vec_push(&cmd->evidence, ev);
}

static void add_evidence_of(struct command *cmd, const effect_list *l, enum effect_kind k)
{
	for (size_t i = 0; i < l->len && cmd->evidence.len < MAX_EVIDENCE; i++)
		if (l->items[i].kind == k)
			add_evidence(cmd, &l->items[i]);
}

static int count_kind(const effect_list *l, enum effect_kind k)
{
	int n = 0;

	for (size_t i = 0; i < l->len; i++)
		n += l->items[i].kind == k;
	return n;
}

/* A command's capabilities from its path's capability checks: those that
 * guard it, and among them the ones every guarding check asks in a user
 * namespace the code chooses; those that guard some paths only. */
static void list_capabilities(struct command *cmd, const effect_list *l)
{
	strvec in_initial = {0}, in_user_ns = {0};

	for (size_t i = 0; i < l->len; i++) {
		const struct effect *e = &l->items[i];
		strvec *dst = e->kind == EF_CAP_GUARD ? &cmd->capabilities :
			e->kind == EF_CAP_COND ? &cmd->conditional_capabilities : NULL;

		for (size_t j = 0; dst && j < e->caps.len; j++) {
			char *name = cap_name(e->caps.items[j]);
			strvec *ns = cap_in_user_ns(e->caps.items[j]) ? &in_user_ns : &in_initial;

			if (e->kind == EF_CAP_GUARD && !strvec_contains(ns, name))
				strvec_push(ns, name);
			if (!strvec_contains(dst, name))
				strvec_push(dst, name);
			free(name);
		}
	}
	for (size_t i = 0; i < cmd->capabilities.len; i++) {
		const char *name = cmd->capabilities.items[i];

		if (strvec_contains(&in_user_ns, name) && !strvec_contains(&in_initial, name))
			strvec_push(&cmd->capabilities_in_user_ns, name);
	}
	strvec_clear(&in_initial);
	strvec_clear(&in_user_ns);
}

/* The class from the effects on the command's path (doc/classes.md). */
void decide(struct command *cmd, const effect_list *l)
{
	int unknown = count_kind(l, EF_UNKNOWN) + count_kind(l, EF_UNFOLLOWED);
	/* calls through function pointers decided on the tree's targets:
	 * right for this tree, not for a module from outside it */
	int resolved = count_kind(l, EF_RESOLVED);
	int modifies = count_kind(l, EF_STORE) + count_kind(l, EF_API_MODIFY) +
		count_kind(l, EF_LINK) +
		count_kind(l, EF_HARDWARE) + count_kind(l, EF_LIFETIME) +
		count_kind(l, EF_MODE_WRITE);
	/* A put with no get anywhere on the path drops a reference someone
	 * else holds: the one a create or open took (rio_mport_free_dma's
	 * kref_put of the DMA mapping, a handle's unref). With a get on the
	 * path, it is taken to be the lookup's reference, given back. */
	int puts = count_kind(l, EF_REF_GET) ? 0 : count_kind(l, EF_REF_PUT);

	modifies += puts;

	list_capabilities(cmd, l);
	if (cmd->capabilities.len) {
		cmd->class = CLASS_ADMIN;
		cmd->confidence = xstrdup("high");
		add_evidence_of(cmd, l, EF_CAP_GUARD);
	} else if (modifies) {
		cmd->class = CLASS_MODIFY;
		cmd->confidence = xstrdup(unknown || resolved ? "low" : "high");
		add_evidence_of(cmd, l, EF_MODE_WRITE);
		add_evidence_of(cmd, l, EF_HARDWARE);
		add_evidence_of(cmd, l, EF_LIFETIME);
		if (puts)
			add_evidence_of(cmd, l, EF_REF_PUT);
		add_evidence_of(cmd, l, EF_API_MODIFY);
		add_evidence_of(cmd, l, EF_LINK);
		add_evidence_of(cmd, l, EF_STORE);
	} else if (unknown) {
		cmd->class = CLASS_UNKNOWN;
		cmd->confidence = xstrdup("low");
		add_evidence_of(cmd, l, EF_UNFOLLOWED);
		add_evidence_of(cmd, l, EF_UNKNOWN);
	} else {
		cmd->class = CLASS_READ;
		cmd->confidence = xstrdup(resolved ? "low" : "high");
		add_evidence_of(cmd, l, EF_RESOLVED);
		add_evidence_of(cmd, l, EF_QUERY);
		add_evidence_of(cmd, l, EF_USER_OUT);
		if (!cmd->evidence.len) {
			struct evidence ev = {
				.kind = xstrdup("no_state_change"),
				.what = xstrdup("no store, state-changing call or unanalysed call on the path"),
				.file = xstrdup(cmd->file),
				.line = cmd->line,
			};

			vec_push(&cmd->evidence, ev);
		}
	}
	add_evidence_of(cmd, l, EF_CAP_COND);
}
