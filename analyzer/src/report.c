#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioc_fields.h"

static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%08llx", (unsigned long long)v);
	return json_string(buf);
}

static json_t *string_list(const strvec *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->len; i++)
		json_array_append_new(a, json_string(v->items[i]));
	return a;
}

/* null when the Makefiles do not say; config null: built whenever the
 * kernel is */
static json_t *objects_json(const kbuild_objects *objects, int known)
{
	json_t *a;

	if (!known)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < objects->len; i++) {
		const struct kbuild_object *ob = &objects->items[i];

		json_array_append_new(a, json_pack("{s:s, s:o}", "module", ob->module, "config",
						   ob->config ? json_string(ob->config) : json_null()));
	}
	return a;
}

/* How the kernel reaches the command's code (doc/report.md): the
 * functions of its first site's dispatch chain, a table entry the
 * dispatcher picks written `table[COMMAND]` before the entry's function. */
static json_t *reach_path(const struct command *c)
{
	json_t *a = json_array();
	const struct command_site *s = c->sites.len ? &c->sites.items[0] : NULL;

	for (int d = 0; s && d < s->chain_len; d++) {
		if (s->table && d == s->chain_len - 1) {
			/* an element of an array of functions is named so */
			size_t n = strlen(s->table);
			char *entry = !strncmp(c->name, s->table, n) && c->name[n] == '[' ?
				      xstrdup(c->name) : xasprintf("%s[%s]", s->table, c->name);

			json_array_append_new(a, json_string(entry));
			free(entry);
		}
		json_array_append_new(a, json_string(s->chain[d].fn->name));
	}
	return a;
}

static json_t *command_json(const struct command *c)
{
	json_t *o = json_object(), *ev = json_array();
	struct ioc_fields f = ioc_decode((uint32_t)c->value);

	json_object_set_new(o, "name", json_string(c->name));
	json_object_set_new(o, "value", hex(c->value));
	json_object_set_new(o, "mask", hex(c->mask));
	json_object_set_new(o, "dir", json_string(ioc_dir_name(f.dir)));
	json_object_set_new(o, "type", json_integer(f.type));
	json_object_set_new(o, "nr", json_integer(f.nr));
	json_object_set_new(o, "size", json_integer(f.size));
	json_object_set_new(o, "file", json_string(c->file));
	json_object_set_new(o, "line", json_integer(c->line));
	json_object_set_new(o, "class", json_string(ioctl_class_name(c->class)));
	json_object_set_new(o, "capabilities", string_list(&c->capabilities));
	json_object_set_new(o, "capabilities_in_user_ns", string_list(&c->capabilities_in_user_ns));
	json_object_set_new(o, "conditional_capabilities",
			    string_list(&c->conditional_capabilities));
	for (size_t i = 0; i < c->evidence.len; i++) {
		const struct evidence *e = &c->evidence.items[i];

		json_array_append_new(ev, json_pack("{s:s, s:s, s:s, s:i}",
						    "kind", e->kind, "what", e->what,
						    "file", e->file, "line", (json_int_t)e->line));
	}
	json_object_set_new(o, "evidence", ev);
	json_object_set_new(o, "confidence", json_string(c->confidence ? c->confidence : "low"));
	json_object_set_new(o, "path", reach_path(c));
	if (c->sites.len && c->sites.items[0].table)
		json_object_set_new(o, "entry_objects",
				    objects_json(&c->entry_objects, c->entry_objects_known));
	return o;
}

static json_t *handler_json(const struct handler *h)
{
	json_t *o = json_object(), *cmds = json_array();

	json_object_set_new(o, "name", json_string(h->name));
	json_object_set_new(o, "kind", json_string(h->kind));
	json_object_set_new(o, "file", json_string(h->file));
	json_object_set_new(o, "line", json_integer(h->line));
	json_object_set_new(o, "fops", string_list(&h->fops));
	json_object_set_new(o, "objects", objects_json(&h->objects, h->objects_known));
	json_object_set_new(o, "default", json_string(h->default_action ? h->default_action : "none"));
	json_object_set_new(o, "forwards_to", string_list(&h->forwards_to));
	if (h->forwarder_of)
		json_object_set_new(o, "forwarder_of", json_string(h->forwarder_of));
	json_object_set_new(o, "unresolved", string_list(&h->unresolved));
	for (size_t i = 0; i < h->commands.len; i++)
		json_array_append_new(cmds, command_json(&h->commands.items[i]));
	json_object_set_new(o, "commands", cmds);
	return o;
}

static json_t *stats_json(const struct scan_result *r, const struct knowledge *kn)
{
	const struct scan_stats *s = &r->stats;
	json_t *o = json_object(), *per_kind = json_object();

	for (size_t i = 0; i < kn->kinds.len; i++)
		json_object_set_new(per_kind, kn->kinds.items[i].kind, json_integer(0));
	for (size_t i = 0; i < r->handlers.len; i++) {
		const char *k = r->handlers.items[i].kind;

		json_object_set_new(per_kind, k,
				    json_integer(json_integer_value(json_object_get(per_kind, k)) + 1));
	}
	json_object_set_new(o, "files_in_tree", json_integer((json_int_t)s->files_total));
	json_object_set_new(o, "files_considered", json_integer((json_int_t)s->files_considered));
	json_object_set_new(o, "files_parsed", json_integer((json_int_t)s->files_parsed));
	json_object_set_new(o, "files_failed", json_integer((json_int_t)s->files_failed));
	json_object_set_new(o, "files_followed", json_integer((json_int_t)s->files_followed));
	json_object_set_new(o, "files_outside_config", json_integer((json_int_t)s->files_outside_config));
	json_object_set_new(o, "other_arch_dirs_skipped", json_integer((json_int_t)s->other_arch_dirs));
	json_object_set_new(o, "handlers", json_integer((json_int_t)r->handlers.len));
	json_object_set_new(o, "handlers_per_kind", per_kind);
	json_object_set_new(o, "unlocked_ioctl_initializers", json_integer((json_int_t)s->ops_unlocked));
	json_object_set_new(o, "unlocked_ioctl_initializers_resolved",
			    json_integer((json_int_t)s->ops_unlocked_resolved));
	json_object_set_new(o, "commands", json_integer((json_int_t)s->commands));
	return o;
}

json_t *report_build(const struct scan_result *r, const struct scan_options *opt,
		     const struct knowledge *kn)
{
	json_t *root = json_object(), *hs = json_array(), *ds = json_array();

	json_object_set_new(root, "tool", json_string("ioctl-scan"));
	json_object_set_new(root, "version", json_string(IOCTL_SCAN_VERSION));
	if (opt->generated_at) {
		char buf[32];
		time_t t = time(NULL);

		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
		json_object_set_new(root, "generated_at", json_string(buf));
	}
	json_object_set_new(root, "kernel", json_pack("{s:s, s:s}", "release", r->kt.release,
						      "source", opt->ksrc));
	json_object_set_new(root, "config",
			    json_pack("{s:s, s:s, s:s, s:i}",
				      "name", opt->config_name ? opt->config_name : "unspecified",
				      "arch", "x86_64",
				      "flags", r->flags_description,
				      "options_enabled", (json_int_t)r->kt.config_options));
	for (size_t i = 0; i < r->handlers.len; i++)
		json_array_append_new(hs, handler_json(&r->handlers.items[i]));
	json_object_set_new(root, "handlers", hs);
	for (size_t i = 0; i < r->diags.len; i++) {
		const struct diag *d = &r->diags.items[i];

		json_array_append_new(ds, json_pack("{s:s, s:s, s:s}", "file", d->file,
						    "severity", d->severity, "message", d->message));
	}
	json_object_set_new(root, "diagnostics", ds);
	json_object_set_new(root, "stats", stats_json(r, kn));
	return root;
}

int report_write(json_t *report, const char *path)
{
	struct atomic_file af;
	int flags = JSON_INDENT(1) | JSON_PRESERVE_ORDER;

	if (!path || !strcmp(path, "-")) {
		if (json_dumpf(report, stdout, flags) || fputc('\n', stdout) == EOF ||
		    fflush(stdout))
			return -1;
		return 0;
	}
	if (atomic_open(&af, path))
		return -1;
	if (json_dumpf(report, af.fp, flags) || fputc('\n', af.fp) == EOF) {
		int saved = errno;

		atomic_abort(&af);
		errno = saved;
		return -1;
	}
	return atomic_commit(&af);
}
