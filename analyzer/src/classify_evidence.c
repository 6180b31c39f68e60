/* The effect set and the decision: effects recorded once per place and
 * kind, the class the effects on a command's path make (doc/classes.md),
 * and the evidence shown for it in the report. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

#define EFFECT_KIND_INFO(kind, name, role, doubt, rank) [kind] = { name, role, doubt, rank },
const struct effect_kind_info effect_kind_info[EF_KIND_COUNT] = {
	EFFECT_KINDS(EFFECT_KIND_INFO)
};
#undef EFFECT_KIND_INFO

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
		.kind = xstrdup(effect_kind_info[e->kind].evidence),
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

/* The evidence of the kinds of a role (and, with puts, the drops of
 * references the path took none of), in their rank's order. */
static void add_evidence_of_role(struct command *cmd, const effect_list *l,
				 enum effect_role role, int puts)
{
	int max_rank = 0;

	for (int k = 0; k < EF_KIND_COUNT; k++)
		if (effect_kind_info[k].rank > max_rank)
			max_rank = effect_kind_info[k].rank;
	for (int r = 0; r <= max_rank; r++)
		for (int k = 0; k < EF_KIND_COUNT; k++)
			if (effect_kind_info[k].rank == r &&
			    (effect_kind_info[k].role == role ||
			     (puts && role == ROLE_MODIFY && effect_kind_info[k].role == ROLE_PUT)))
				add_evidence_of(cmd, l, (enum effect_kind)k);
}

/* The class from the effects on the command's path (doc/classes.md),
 * each kind counting as its role says (effect_kinds.h). */
void decide(struct command *cmd, const effect_list *l)
{
	int count[EF_KIND_COUNT] = {0}, unknown = 0, modifies = 0, doubt = 0, puts;

	for (size_t i = 0; i < l->len; i++)
		count[l->items[i].kind]++;
	for (int k = 0; k < EF_KIND_COUNT; k++) {
		unknown += effect_kind_info[k].role == ROLE_UNKNOWN ? count[k] : 0;
		modifies += effect_kind_info[k].role == ROLE_MODIFY ? count[k] : 0;
		doubt += effect_kind_info[k].doubt ? count[k] : 0;
	}
	/* A put with no get anywhere on the path drops a reference someone
	 * else holds: the one a create or open took (rio_mport_free_dma's
	 * kref_put of the DMA mapping, a handle's unref). With a get on the
	 * path, it is taken to be the lookup's reference, given back. */
	puts = count[EF_REF_GET] ? 0 : count[EF_REF_PUT];
	modifies += puts;

	list_capabilities(cmd, l);
	if (cmd->capabilities.len) {
		cmd->class = CLASS_ADMIN;
		cmd->confidence = xstrdup("high");
		add_evidence_of_role(cmd, l, ROLE_GUARD, 0);
	} else if (modifies) {
		cmd->class = CLASS_MODIFY;
		cmd->confidence = xstrdup(doubt ? "low" : "high");
		add_evidence_of_role(cmd, l, ROLE_MODIFY, puts);
	} else if (unknown) {
		cmd->class = CLASS_UNKNOWN;
		cmd->confidence = xstrdup("low");
		add_evidence_of_role(cmd, l, ROLE_UNKNOWN, 0);
	} else {
		cmd->class = CLASS_READ;
		cmd->confidence = xstrdup(doubt ? "low" : "high");
		add_evidence_of_role(cmd, l, ROLE_READ, 0);
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
	add_evidence_of_role(cmd, l, ROLE_COND, 0);
}
