/* ioctl-scan table REPORT [-o FILE]: the C table that the SELinux patch
 * (kernel-glue/) compiles into security/selinux/.
 *
 * Two kinds of entry, both sorted so the kernel can binary-search them:
 * - per handler: the commands of one ioctl function, found through the
 *   address of the file's (or disk's, or tty's) ioctl function, which the
 *   kernel resolves from the handler's name through kallsyms at boot;
 * - fallback: every value merged over all handlers that serve it, to the
 *   most restrictive class among them (admin > modify > read), for files
 *   whose handler the kernel cannot identify (modules, ambiguous names).
 * Commands classified `unknown` keep today's behaviour: they are not in the
 * fallback, and in their handler's slice they are SEL_IOCTL_NONE entries,
 * which end the kernel's search there, so that a second-level handler's
 * entry for the same value (the disk's, the tty driver's) cannot apply to a
 * command the first level serves itself.
 * Within each handler, exact entries (mask 0xffffffff) come first, sorted
 * by value, then the size-encoded families, sorted by value and mask.
 *
 * Output is deterministic: the same report gives the same bytes. */
#include "subcommands.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_read.h"
#include "util.h"

enum cls { CLS_NONE, CLS_READ, CLS_MODIFY, CLS_ADMIN };

static const char *const cls_macro[] = {
	[CLS_NONE] = "SEL_IOCTL_NONE", [CLS_READ] = "SEL_IOCTL_READ", [CLS_MODIFY] = "SEL_IOCTL_MODIFY", [CLS_ADMIN] = "SEL_IOCTL_ADMIN",
};

struct entry {
	uint32_t value, mask;
	enum cls cls;
	const char *cap;	/* CAP_* for admin */
	const char *name;	/* the command's macro, for the comment */
	int sharers;		/* fallback: handlers that serve this value */
};

typedef VEC(struct entry) entryvec;

struct table_handler {
	const char *name, *file;
	int ambiguous;		/* another function of the same name */
	entryvec ents;
};

typedef VEC(struct table_handler) handlervec;

static enum cls cls_of(const char *s)
{
	if (!s)
		return CLS_NONE;
	if (!strcmp(s, "read"))
		return CLS_READ;
	if (!strcmp(s, "modify"))
		return CLS_MODIFY;
	if (!strcmp(s, "admin"))
		return CLS_ADMIN;
	return CLS_NONE;
}

static int is_exact(const struct entry *e)
{
	return e->mask == 0xffffffffu;
}

/* Exact entries first, by value; then families, the most specific mask
 * (most bits tested) first, so the kernel's scan takes the first match. */
static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int bx = __builtin_popcount(x->mask), by = __builtin_popcount(y->mask);

	if (is_exact(x) != is_exact(y))
		return is_exact(x) ? -1 : 1;
	if (bx != by)
		return bx > by ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int handler_cmp(const void *a, const void *b)
{
	const struct table_handler *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->file, y->file);
}

static struct table_handler *handler_get(handlervec *hs, const char *name, const char *file)
{
	struct table_handler h = { .name = name, .file = file };

	for (size_t i = 0; i < hs->len; i++)
		if (!strcmp(hs->items[i].name, name) && !strcmp(hs->items[i].file, file))
			return &hs->items[i];
	vec_push(hs, h);
	return &hs->items[hs->len - 1];
}

/* Adds e to v; the same value and mask seen again keeps the stricter class
 * (one function installed under two kinds lists its commands twice). */
static void entry_merge(entryvec *v, struct entry e)
{
	for (size_t i = 0; i < v->len; i++) {
		struct entry *o = &v->items[i];

		if (o->value == e.value && o->mask == e.mask) {
			o->sharers++;
			if (e.cls > o->cls) {
				o->cls = e.cls;
				o->cap = e.cap;
				o->name = e.name;
			}
			return;
		}
	}
	e.sharers = 1;
	vec_push(v, e);
}

/* A family whose mask leaves part of the type byte out would match other
 * drivers' commands: it is precise for its own handler only. */
static int fallback_safe(const struct entry *e)
{
	return (e->mask & 0x0000ff00u) == 0x0000ff00u;
}

static void collect(json_t *report, handlervec *hs)
{
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		struct table_handler *hd = handler_get(hs, json_string_value(json_object_get(h, "name")),
						 json_string_value(json_object_get(h, "file")));

		json_array_foreach(json_object_get(h, "commands"), j, c) {
			struct entry e = {
				.value = report_hex(c, "value"),
				.mask = report_hex(c, "mask"),
				.cls = cls_of(json_string_value(json_object_get(c, "class"))),
				.name = json_string_value(json_object_get(c, "name")),
			};

			if (e.cls == CLS_ADMIN)
				e.cap = json_string_value(json_array_get(json_object_get(c, "capabilities"), 0));
			if (e.cls == CLS_ADMIN && !e.cap)
				e.cls = CLS_MODIFY;	/* admin without a named capability */
			entry_merge(&hd->ents, e);
		}
	}
	vec_sort(hs, handler_cmp);
	for (size_t k = 0; k + 1 < hs->len; k++)
		if (!strcmp(hs->items[k].name, hs->items[k + 1].name))
			hs->items[k].ambiguous = hs->items[k + 1].ambiguous = 1;
}

struct counts {
	int per_cls[4], exact, families, handlers, ambiguous, fb_exact, fb_families, collide;
};

static void emit_entries(FILE *fp, const entryvec *v, struct counts *n, int fallback)
{
	for (size_t i = 0; i < v->len; i++) {
		const struct entry *e = &v->items[i];

		char *entry = xasprintf("{ 0x%08" PRIx32 ", 0x%08" PRIx32 ", %s, %s },", e->value,
					e->mask, cls_macro[e->cls], e->cap ? e->cap : "0");
		char *note = fallback && e->sharers > 1 ?
			xasprintf("/* %s; %d handlers */", e->name, e->sharers) :
			xasprintf("/* %s */", e->name);

		/* the kernel's 100 columns: a long note goes on its own line */
		if (8 + strlen(entry) + 1 + strlen(note) > 100)
			fprintf(fp, "\t%s\n\t%s\n", note, entry);
		else
			fprintf(fp, "\t%s %s\n", entry, note);
		free(entry);
		free(note);
		n->per_cls[e->cls]++;
		if (fallback) {
			*(is_exact(e) ? &n->fb_exact : &n->fb_families) += 1;
			n->collide += e->sharers > 1;
		} else {
			*(is_exact(e) ? &n->exact : &n->families) += 1;
		}
	}
}

static size_t exact_count(const entryvec *v)
{
	size_t k = 0;

	while (k < v->len && is_exact(&v->items[k]))
		k++;
	return k;
}

/* Writes the entries to body; index gets one line per handler, and the
 * fallback's descriptor goes to *fallback. */
static void emit(FILE *body, handlervec *hs, entryvec *fb, struct counts *n, strvec *index,
		 char **fallback)
{
	size_t first = 0;

	fprintf(body, "const struct sel_ioctl_cmd sel_ioctl_cmds[] = {\n");
	for (size_t i = 0; i < hs->len; i++) {
		struct table_handler *h = &hs->items[i];

		if (h->ambiguous) {
			n->ambiguous++;
			continue;
		}
		if (!h->ents.len)
			continue;
		vec_sort(&h->ents, entry_cmp);
		fprintf(body, "\t/* %s (%s) */\n", h->name, h->file);
		emit_entries(body, &h->ents, n, 0);
		strvec_push(index, xasprintf("\t{ \"%s\", %zu, %zu, %zu },\n", h->name, first,
					     exact_count(&h->ents), h->ents.len - exact_count(&h->ents)));
		first += h->ents.len;
		n->handlers++;
	}
	vec_sort(fb, entry_cmp);
	fprintf(body, "\t/* fallback: each value merged over every handler that serves it */\n");
	emit_entries(body, fb, n, 1);
	*fallback = xasprintf("const struct sel_ioctl_handler sel_ioctl_fallback = "
			      "{ NULL, %zu, %zu, %zu };\n", first, exact_count(fb),
			      fb->len - exact_count(fb));
	fprintf(body, "};\n\n");
}

static int write_table(FILE *fp, FILE *stats, json_t *report, handlervec *hs, entryvec *fb)
{
	struct counts n;
	strvec index = { 0 };
	char *text = NULL, *fallback = NULL;
	size_t len = 0;
	FILE *mem;

	memset(&n, 0, sizeof(n));
	mem = open_memstream(&text, &len);
	if (!mem)
		return -1;
	emit(mem, hs, fb, &n, &index, &fallback);
	fclose(mem);

	fprintf(fp, "// SPDX-License-Identifier: GPL-2.0-only\n/*\n"
		" * ioctl commands of Linux %s and what they do, generated by\n"
		" * ioctl-scan %s from the kernel source (%s, %s).\n"
		" * Do not edit: regenerate with `make generate` in ioctl-scan.\n *\n"
		" * %d handlers, %d exact entries and %d families; fallback: %d exact\n"
		" * entries and %d families, %d of them values served by more than one\n"
		" * handler; %d handler names left to the fallback as ambiguous.\n"
		" * Entries per class: read %d, modify %d, admin %d, none (unknown) %d.\n */\n",
		json_string_value(json_object_get(json_object_get(report, "kernel"), "release")),
		IOCTL_SCAN_VERSION,
		json_string_value(json_object_get(json_object_get(report, "config"), "name")),
		json_string_value(json_object_get(json_object_get(report, "config"), "arch")),
		n.handlers, n.exact, n.families, n.fb_exact, n.fb_families, n.collide, n.ambiguous,
		n.per_cls[CLS_READ], n.per_cls[CLS_MODIFY], n.per_cls[CLS_ADMIN], n.per_cls[CLS_NONE]);
	fprintf(fp, "#include <linux/cache.h>\n#include <linux/capability.h>\n#include <linux/kernel.h>\n"
		"#include \"ioctl_semantics.h\"\n\n");
	fputs(text, fp);
	fprintf(fp, "const struct sel_ioctl_handler sel_ioctl_handlers[] = {\n");
	for (size_t i = 0; i < index.len; i++)
		fputs(index.items[i], fp);
	fprintf(fp, "};\n\nconst unsigned int sel_ioctl_nr_handlers = ARRAY_SIZE(sel_ioctl_handlers);\n");
	fputs(fallback, fp);
	fprintf(fp, "\n/* filled in at boot from kallsyms, sorted by address */\n"
		"struct sel_ioctl_addr sel_ioctl_addrs[ARRAY_SIZE(sel_ioctl_handlers)] __ro_after_init;\n");
	free(text);
	free(fallback);
	strvec_clear(&index);

	fprintf(stats, "table: %d handlers, %d exact entries, %d families"
		" (read %d, modify %d, admin %d, none %d)\n",
		n.handlers, n.exact, n.families, n.per_cls[CLS_READ], n.per_cls[CLS_MODIFY],
		n.per_cls[CLS_ADMIN], n.per_cls[CLS_NONE]);
	fprintf(stats, "fallback: %d exact entries, %d families; %d values served by more than one handler\n",
	       n.fb_exact, n.fb_families, n.collide);
	fprintf(stats, "ambiguous handler names (fallback only): %d\n", n.ambiguous);
	return 0;
}

int cmd_table(int argc, char **argv)
{
	static const char synopsis[] = "table REPORT [-o FILE]";
	const char *path, *out;
	struct atomic_file af;
	handlervec hs = { 0 };
	entryvec fb = { 0 };
	json_t *r;
	int rc;

	if (report_args(argc, argv, synopsis, &path, &out))
		return 2;
	r = report_load(path);
	if (!r)
		return 2;
	collect(r, &hs);
	for (size_t i = 0; i < hs.len; i++)
		for (size_t k = 0; k < hs.items[i].ents.len; k++)
			if (hs.items[i].ents.items[k].cls != CLS_NONE &&
			    (is_exact(&hs.items[i].ents.items[k]) ||
			     fallback_safe(&hs.items[i].ents.items[k])))
				entry_merge(&fb, hs.items[i].ents.items[k]);
	if (out) {
		if (atomic_open(&af, out))
			return 2;
		rc = write_table(af.fp, stdout, r, &hs, &fb);
		if (rc || atomic_commit(&af)) {
			atomic_abort(&af);
			fprintf(stderr, "ioctl-scan: cannot write %s\n", out);
			return 2;
		}
	} else {
		rc = write_table(stdout, stderr, r, &hs, &fb) ? 2 : 0;
	}
	return rc;
}
