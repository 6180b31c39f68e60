/* Kind-entry guards: the checks a core makes on every path that hands a
 * command to an inner handler kind (dev_ioctl's ns_capable() before
 * ops->ndo_eth_ioctl), recorded while the entry kinds' commands are walked
 * and inherited by the commands of the inner kinds' handlers. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

static struct kind_entry *kind_entry_of(kind_entries *l, const struct handler_kind *k,
					uint64_t value, uint64_t mask)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->items[i].kind == k && l->items[i].value == value && l->items[i].mask == mask)
			return &l->items[i];
	return NULL;
}

/* Is check e made on this path (a list of checks) too? */
static int made_on_path(const struct effect *e, const void *path)
{
	const effect_list *p = path;

	for (size_t j = 0; j < p->len; j++)
		if (p->items[j].line == e->line && !strcmp(p->items[j].file, e->file))
			return 1;
	return 0;
}

/* Keeps of the checks in l those made on this path too. */
static void keep_guards_in(effect_list *l, const effect_list *path)
{
	effects_filter(l, made_on_path, path);
}

/* A call through a handler kind's member that hands on the command being
 * walked (dev_eth_ioctl's ops->ndo_eth_ioctl(dev, ifr, cmd)): one more
 * path into that kind for the command, with the checks made before it.
 * Recorded first from the kinds where the system call enters, then from
 * the inner kinds (an ATM socket's proto_ops.ioctl handing a command to
 * atm_dev_ioctl, which checks before it calls dev->ops->ioctl) for the
 * values the first did not see. */
void note_kind_entry(struct classifier *c, const struct function_facts *fn,
		     const struct stmt *s)
{
	const struct handler_kind *k;
	struct kind_entry *e, fresh = {0};

	if (!c->record_entries || !c->cmd || !s->callee_struct || command_argument(c, fn, s) < 0)
		return;
	k = knowledge_kind_for(c->kn, s->callee_struct, s->callee_field);
	if (!k)
		return;
	e = kind_entry_of(c->entries, k, c->cmd->value, c->cmd->mask);
	/* an inner kind's path adds to no value a path from where the
	 * system call enters hands on: those keep what they had */
	if (e && c->record_entries == RECORD_INNER && !e->inner)
		return;
	if (!e) {
		fresh.kind = k;
		fresh.value = c->cmd->value;
		fresh.mask = c->cmd->mask;
		fresh.inner = c->record_entries == RECORD_INNER;
		for (size_t i = 0; i < c->guards.len; i++)
			effect_add(&fresh.guards, EF_CAP_GUARD, xstrdup(c->guards.items[i].what),
				   c->guards.items[i].file, c->guards.items[i].line,
				   &c->guards.items[i].caps);
		vec_push(c->entries, fresh);
		e = &c->entries->items[c->entries->len - 1];
	} else {
		keep_guards_in(&e->guards, &c->guards);
	}
	if (!strvec_contains(&e->via, c->hname))
		strvec_push(&e->via, c->hname);
}

/* Does the system call enter at handlers of this kind (file_operations,
 * the VFS's own functions), rather than through a core that may check
 * before it calls them? */
int entry_kind(const struct handler_kind *k)
{
	return !k || !k->struct_name || !strcmp(k->struct_name, "file_operations");
}

/* The checks the core makes on every path that hands the command to a
 * handler of this kind (note_kind_entry), as the command's own. */
void inherit_entry_guards(const struct classifier *c, const struct command *cmd,
			  effect_list *l)
{
	effect_list guards = {0};
	strvec via = {0};
	struct strbuf names = {0};
	int paths = 0;

	if (!c->entries || cmd->mask != 0xffffffffu)
		return;
	/* every path that hands on this value: its own, and those of
	 * families (ranges, renamed commands) that take it in */
	for (size_t i = 0; i < c->entries->len; i++) {
		const struct kind_entry *e = &c->entries->items[i];

		if (e->kind != c->hkind || (cmd->value & e->mask) != (e->value & e->mask))
			continue;
		if (!paths++)
			for (size_t j = 0; j < e->guards.len; j++)
				effect_add(&guards, EF_CAP_GUARD, xstrdup(e->guards.items[j].what),
					   e->guards.items[j].file, e->guards.items[j].line,
					   &e->guards.items[j].caps);
		else
			keep_guards_in(&guards, &e->guards);
		for (size_t j = 0; j < e->via.len; j++)
			if (!strvec_contains(&via, e->via.items[j]))
				strvec_push(&via, e->via.items[j]);
	}
	for (size_t i = 0; i < via.len; i++)
		sb_addf(&names, "%s%s", i ? ", " : "", via.items[i]);
	for (size_t i = 0; i < guards.len; i++)
		effect_add(l, EF_CAP_GUARD,
			   xasprintf("%s, before the core calls %s.%s, on every path analysed (from %s)",
				     guards.items[i].what, c->hkind->struct_name, c->hkind->field,
				     names.buf),
			   guards.items[i].file, guards.items[i].line, &guards.items[i].caps);
	free(sb_detach(&names));
	strvec_clear(&via);
	effects_free(&guards);
}
