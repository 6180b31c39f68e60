/* ioctl-scan table REPORT [-o FILE]: the C table that the SELinux patch
 * (kernel-glue/) compiles into security/selinux/.
 *
 * Only handlers of the kinds the kernel's lookup reaches are in it (see
 * looked_up_kinds). Two kinds of entry, both sorted so the kernel can
 * binary-search them:
 * - per handler: the commands of one ioctl function, found through the
 *   address of the file's (or disk's, or tty's) ioctl function. Each
 *   names the object its file is linked into (the report's `objects`)
 *   and whether the configuration builds it in or as a module
 *   (IS_BUILTIN()/IS_MODULE() of its option), so that the kernel binds the name to
 *   that object's function: through kallsyms at boot when it is built in,
 *   in the module's own symbols when that module loads;
 *   A handler with no command of its own is listed all the same, with no
 *   entries (the kernel then knows the file's handler and follows it to
 *   the second-level one); the core's handler of a merged kind
 *   (v4l2_ioctl) lists that kind's commands, merged (see merged_kinds);
 * - fallback: every value merged over all handlers that serve it, to the
 *   most restrictive class among them (admin > modify > read), for files
 *   whose handler the kernel cannot identify (a handler whose object the
 *   Makefiles do not say, an ambiguous name, a function not in the table).
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

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "report_read.h"
#include "util.h"

/* the kernel's names of the classes; unknown is an entry that ends the
 * search and keeps today's checks */
static const char *const cls_macro[CLASS_COUNT] = {
	[CLASS_UNKNOWN] = "SEL_IOCTL_NONE",
	[CLASS_READ] = "SEL_IOCTL_READ",
	[CLASS_MODIFY] = "SEL_IOCTL_MODIFY",
	[CLASS_ADMIN] = "SEL_IOCTL_ADMIN",
};

struct entry {
	uint32_t value, mask;
	enum ioctl_class cls;
	const char *cap;	/* CAP_* for admin */
	/* every check of cap may be made in a user namespace the driver
	 * chooses (the report's capabilities_in_user_ns) */
	int cap_user_ns;
	const char *name;	/* the command's macro, for the comment */
	int sharers;		/* fallback, merged: handlers that serve this value */
	int merged;		/* a merged kind's, under the core's handler */
};

typedef VEC(struct entry) entryvec;

struct table_handler {
	const char *name, *file;
	const char *object;	/* KBUILD_MODNAME; NULL: not bound to one */
	char *builtin, *module;	/* C expressions (bind_object) */
	const char *kind;	/* the first kind it was seen under */
	json_t *objects;	/* the report's, for --config */
	int ambiguous;		/* another function of the same name and object */
	int private;		/* a kind of private_kinds: not in the fallback */
	entryvec ents;
};

/* The handler kinds that kernel-glue's lookup reaches
 * (sel_ioctl_find_all() in ioctl_semantics.c): the ioctl syscall's own
 * commands, the file's handler, the disk's, the tty driver's and the line
 * discipline's, a socket's protocol handlers (sock->ops->ioctl, then
 * sk->sk_prot->ioctl), a DRM driver's ioctl table (the function of
 * dev->driver->ioctls[] that drm_ioctl() calls) and a posix clock's driver
 * (clk->ops.ioctl, which posix_clock_ioctl() calls). A kind whose commands
 * the kernel cannot reach yet (V4L2, compat calls on sockets, ...) stays
 * out of the table, fallback included: merged into the fallback, its
 * commands would apply to files that never reach them. */
static const char *const looked_up_kinds[] = {
	"vfs", "vfs_compat", "unlocked_ioctl", "compat_ioctl",
	"block_device_operations.ioctl", "block_device_operations.compat_ioctl",
	"tty_operations.ioctl", "tty_operations.compat_ioctl",
	"tty_ldisc_ops.ioctl", "tty_ldisc_ops.compat_ioctl",
	"proto_ops.ioctl", "proto.ioctl", "drm_driver.ioctls",
	"posix_clock_operations.ioctl",
};

/* Kinds the kernel reaches only through the file's own structures (a
 * socket's protocol, sel_ioctl_find_sock(); a DRM device's driver,
 * sel_ioctl_find_drm(); a posix clock's, sel_ioctl_find_clock()): in the
 * table under their own handler, never in the fallback, which serves files
 * whose handler is unknown and so cannot know a socket's protocol or a DRM
 * file's driver. */
static const char *const private_kinds[] = {
	"proto_ops.ioctl", "proto.ioctl", "drm_driver.ioctls",
	"posix_clock_operations.ioctl",
};

/* Kinds whose handler the kernel cannot tell from the file: a core's file
 * handler calls the one its own private structure names. v4l2_ioctl()
 * calls vdev->fops->unlocked_ioctl, and a file's video_device is
 * videodev's to find (video_devdata() reads a static array; the cdev has
 * no parent), out of SELinux's reach when videodev is a module;
 * media_ioctl() and media_compat_ioctl() hand the command to the media
 * device node's devnode->fops->ioctl or ->compat_ioctl (mc-devnode.c,
 * __media_ioctl()), whose one implementation in the tree is the media
 * controller's own table (mc-device.c); iio_ioctl() offers the command to
 * each iio_ioctl_handler the device registered, in turn, until one takes
 * it (industrialio-core.c); v4l2_compat_ioctl32() hands a 32-bit call's
 * V4L2 core command ('V', below BASE_VIDIOC_PRIVATE) to the file's
 * unlocked_ioctl, v4l2_ioctl(), and any other to the device's
 * vdev->fops->compat_ioctl32 (v4l2-compat-ioctl32.c): both kinds under
 * it. A 32-bit command whose argument has another size than the native
 * one has another value, which only the native handler's translation
 * knows (video_translate_cmd()): it is not listed and keeps today's
 * checks. The
 * commands of every handler of such a kind are listed under the core's
 * handler, each value merged over the kind's handlers to the most
 * restrictive class, as the fallback merges over every handler: never
 * less than what any handler the call can reach gives it. Unknown entries
 * and families wider than a type are left out, as from the fallback; the
 * merge is not in the fallback itself. */
static const struct merged_kind {
	const char *kind;	/* the handlers' kind */
	const char *under;	/* the core's file handler that calls them */
} merged_kinds[] = {
	{ "v4l2_file_operations.unlocked_ioctl", "v4l2_ioctl" },
	{ "media_file_operations.ioctl", "media_ioctl" },
	{ "media_file_operations.compat_ioctl", "media_compat_ioctl" },
	{ "iio_ioctl_handler.ioctl", "iio_ioctl" },
	{ "v4l2_file_operations.unlocked_ioctl", "v4l2_compat_ioctl32" },
	{ "v4l2_file_operations.compat_ioctl32", "v4l2_compat_ioctl32" },
};

#define NR_MERGED_KINDS (sizeof(merged_kinds) / sizeof(merged_kinds[0]))

/* Table kinds: the report's handler is a table whose dispatcher calls the
 * function of the entry the command picks (doc/report.md: the path's
 * `table[COMMAND]` element, then that function). The kernel finds such a
 * command by that function's address, as it finds any handler: the table
 * lists it under the entry's function, bound to the table's object. An
 * entry whose function another object holds (drm_noop, drm_invalid_op:
 * helpers of the DRM core) is left out: its address would not say whose
 * entry it is. */
static const char *const entry_kinds[] = { "drm_driver.ioctls" };

/* Commands a file handler serves only after a second-level handler has
 * declined them: net/socket.c sock_do_ioctl() calls sock->ops->ioctl first
 * and dev_ioctl() only for what that returns -ENOIOCTLCMD for. The report
 * lists them under sock_ioctl with dev_ioctl in their path; the table
 * puts them under a handler of their own, named for the function that
 * makes that call, which the kernel searches after the socket's protocol
 * handlers (and, as before, when it cannot find those). */
static const struct handed_last {
	const char *handler;	/* the file's handler, as the report names it */
	const char *via;	/* a function in the command's path */
	const char *as;		/* the handler the table lists them under */
} handed_last[] = {
	{ "sock_ioctl", "dev_ioctl", "sock_do_ioctl" },
};

static int kind_in(const char *kind, const char *const *kinds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kind && !strcmp(kind, kinds[i]))
			return 1;
	return 0;
}

/* For a command of the table kind handler h: the function its entry
 * names, the element of its path after `table[COMMAND]`, when it is linked
 * into the table's own object (the report's `entry_objects`); else NULL. */
static const char *entry_function(json_t *h, json_t *cmd)
{
	json_t *path = json_object_get(cmd, "path"), *objects = json_object_get(h, "objects");
	size_t n = json_array_size(path);
	const char *entry = n >= 2 ? json_string_value(json_array_get(path, n - 2)) : NULL;

	if (!entry || !strchr(entry, '[') || entry[strlen(entry) - 1] != ']')
		return NULL;
	if (!json_is_array(objects) || !json_equal(objects, json_object_get(cmd, "entry_objects")))
		return NULL;
	return json_string_value(json_array_get(path, n - 1));
}

/* The handler a command of h is listed under: the entry's function for a
 * table kind; h's own name, or the handed_last entry's when its path goes
 * through that entry's function. NULL: nowhere. */
static const char *listed_under(json_t *h, const char *handler, int by_entry, json_t *cmd)
{
	json_t *fn;
	size_t i;

	if (by_entry)
		return entry_function(h, cmd);

	for (size_t k = 0; k < sizeof(handed_last) / sizeof(handed_last[0]); k++) {
		if (strcmp(handler, handed_last[k].handler))
			continue;
		json_array_foreach(json_object_get(cmd, "path"), i, fn)
			if (json_string_value(fn) && !strcmp(json_string_value(fn), handed_last[k].via))
				return handed_last[k].as;
	}
	return handler;
}

static int looked_up(const char *kind)
{
	return kind_in(kind, looked_up_kinds, sizeof(looked_up_kinds) / sizeof(looked_up_kinds[0]));
}

/* The object the handler's file is linked into, from the report's
 * `objects`, and how the configuration links it: IS_BUILTIN(CONFIG_X) and
 * IS_MODULE(CONFIG_X), or-ed over the options when two options build the
 * same object (pty.o by LEGACY_PTYS and UNIX98_PTYS); 1 and 0 when it is
 * built whenever the kernel is. None when the Makefiles do not say or
 * name two objects (a file linked into two modules). */
static void bind_object(struct table_handler *hd, json_t *h)
{
	json_t *objs = json_object_get(h, "objects"), *o;
	const char *object = NULL;
	char *builtin = NULL, *module = NULL;
	size_t i;

	json_array_foreach(objs, i, o) {
		const char *name = json_string_value(json_object_get(o, "module"));
		const char *config = json_string_value(json_object_get(o, "config"));
		char *b, *m;

		if (object && strcmp(object, name))
			goto out;
		object = name;
		if (!config || (builtin && !strcmp(builtin, "1"))) {
			free(builtin);
			free(module);
			builtin = xstrdup("1");
			module = xstrdup("0");
			continue;
		}
		b = builtin ? xasprintf("%s || IS_BUILTIN(%s)", builtin, config) :
			      xasprintf("IS_BUILTIN(%s)", config);
		m = module ? xasprintf("%s || IS_MODULE(%s)", module, config) :
			     xasprintf("IS_MODULE(%s)", config);
		free(builtin);
		free(module);
		builtin = b;
		module = m;
	}
	if (object) {
		hd->object = object;
		free(hd->builtin);
		free(hd->module);
		hd->builtin = builtin;
		hd->module = module;
		return;
	}
out:
	free(builtin);
	free(module);
}

typedef VEC(struct table_handler) handlervec;

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

	if (!c)
		c = strcmp(x->object ? x->object : "", y->object ? y->object : "");
	return c ? c : strcmp(x->file, y->file);
}

/* The same name in the same object twice (static functions of two files
 * of one module): the kernel could not tell them apart. */
static int same_binding(const struct table_handler *x, const struct table_handler *y)
{
	return !strcmp(x->name, y->name) && x->object && y->object && !strcmp(x->object, y->object);
}

static struct table_handler *handler_find(handlervec *hs, const char *name, const char *file)
{
	for (size_t i = 0; i < hs->len; i++)
		if (!strcmp(hs->items[i].name, name) && !strcmp(hs->items[i].file, file))
			return &hs->items[i];
	return NULL;
}

static struct table_handler *handler_get(handlervec *hs, const char *name, const char *file)
{
	struct table_handler h = { .name = name, .file = file };
	struct table_handler *found = handler_find(hs, name, file);

	if (found)
		return found;
	vec_push(hs, h);
	return &hs->items[hs->len - 1];
}

/* Binds hd to the object of the report's handler h, seen under kind. */
static void bind_handler(struct table_handler *hd, json_t *h, const char *kind)
{
	bind_object(hd, h);
	if (!hd->kind) {
		hd->kind = kind;
		hd->objects = json_object_get(h, "objects");
		hd->private = kind_in(kind, private_kinds,
				      sizeof(private_kinds) / sizeof(private_kinds[0]));
	}
}

/* Adds e to v; the same value and mask seen again keeps the stricter class
 * (one function installed under two kinds lists its commands twice). */
/* Merges e, served by `sharers` handlers, into v: the most restrictive
 * class of a value that is there already. */
static void entry_merge_shared(entryvec *v, struct entry e, int sharers)
{
	for (size_t i = 0; i < v->len; i++) {
		struct entry *o = &v->items[i];

		if (o->value == e.value && o->mask == e.mask) {
			o->sharers += sharers;
			if (e.cls > o->cls) {
				o->cls = e.cls;
				o->cap = e.cap;
				o->cap_user_ns = e.cap_user_ns;
				o->name = e.name;
			} else if (e.cls == o->cls && !e.cap_user_ns) {
				/* the initial namespace's class, capability, is
				 * the stricter one */
				o->cap_user_ns = 0;
			}
			return;
		}
	}
	e.sharers = sharers;
	vec_push(v, e);
}

static void entry_merge(entryvec *v, struct entry e)
{
	entry_merge_shared(v, e, 1);
}

/* A family whose mask leaves part of the type byte out would match other
 * drivers' commands: it is precise for its own handler only. */
static int fallback_safe(const struct entry *e)
{
	return (e->mask & 0x0000ff00u) == 0x0000ff00u;
}

/* A command of the report as the table's entry. */
static struct entry entry_of(json_t *c)
{
	struct entry e = {
		.value = report_hex(c, "value"),
		.mask = report_hex(c, "mask"),
		.cls = report_class(c),
		.name = json_string_value(json_object_get(c, "name")),
	};

	if (e.cls == CLASS_ADMIN)
		e.cap = json_string_value(json_array_get(json_object_get(c, "capabilities"), 0));
	if (e.cap)
		e.cap_user_ns = report_list_contains(json_object_get(c, "capabilities_in_user_ns"),
						     e.cap);
	if (e.cls == CLASS_ADMIN && !e.cap)
		e.cls = CLASS_MODIFY;	/* admin without a named capability */
	return e;
}

/* A merged kind's commands, into the core's handler (by name: there is
 * one). */
static void merge_kinds(handlervec *hs, entryvec merged[NR_MERGED_KINDS])
{
	for (size_t k = 0; k < NR_MERGED_KINDS; k++) {
		for (size_t i = 0; i < hs->len; i++) {
			struct table_handler *hd = &hs->items[i];

			if (strcmp(hd->name, merged_kinds[k].under))
				continue;
			for (size_t e = 0; e < merged[k].len; e++)
				entry_merge_shared(&hd->ents, merged[k].items[e],
						   merged[k].items[e].sharers);
		}
		vec_free(&merged[k]);
	}
}

static void collect(json_t *report, handlervec *hs, int *not_looked_up)
{
	entryvec merged[NR_MERGED_KINDS] = { 0 };
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		const char *kind = json_string_value(json_object_get(h, "kind"));
		const char *name = json_string_value(json_object_get(h, "name"));
		const char *file = json_string_value(json_object_get(h, "file"));
		int by_entry = kind_in(kind, entry_kinds, sizeof(entry_kinds) / sizeof(entry_kinds[0]));

		for (size_t k = 0; k < NR_MERGED_KINDS; k++) {
			if (strcmp(kind, merged_kinds[k].kind))
				continue;
			json_array_foreach(json_object_get(h, "commands"), j, c) {
				struct entry e = entry_of(c);

				e.merged = 1;
				if (e.cls != CLASS_UNKNOWN && (is_exact(&e) || fallback_safe(&e)))
					entry_merge(&merged[k], e);
			}
		}
		if (!looked_up(kind)) {
			(*not_looked_up)++;
			continue;
		}
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			const char *under = listed_under(h, name, by_entry, c);
			struct table_handler *hd;
			struct entry e = entry_of(c);

			if (!under)
				continue;
			hd = handler_get(hs, under, file);
			entry_merge(&hd->ents, e);
			if (by_entry)	/* an entry's function: in the table's object */
				bind_handler(hd, h, kind);
		}
		/* the handler itself (even with no command), and the handler its
		 * handed_last commands went to: both in h's object */
		bind_handler(handler_get(hs, name, file), h, kind);
		for (size_t k = 0; k < sizeof(handed_last) / sizeof(handed_last[0]); k++) {
			struct table_handler *last = handler_find(hs, handed_last[k].as, file);

			if (!strcmp(name, handed_last[k].handler) && last)
				bind_handler(last, h, kind);
		}
	}
	merge_kinds(hs, merged);
	vec_sort(hs, handler_cmp);
	for (size_t k = 0; k + 1 < hs->len; k++)
		if (same_binding(&hs->items[k], &hs->items[k + 1]))
			hs->items[k].ambiguous = hs->items[k + 1].ambiguous = 1;
}

struct counts {
	int per_cls[CLASS_COUNT], exact, families, handlers, ambiguous, unbound, always, not_looked_up;
	int fb_exact, fb_families, collide;
};

static void emit_entries(FILE *fp, const entryvec *v, struct counts *n, int fallback)
{
	for (size_t i = 0; i < v->len; i++) {
		const struct entry *e = &v->items[i];

		char *entry = xasprintf("{ 0x%08" PRIx32 ", 0x%08" PRIx32 ", %s, %s%s },", e->value,
					e->mask, cls_macro[e->cls], e->cap ? e->cap : "0",
					e->cap_user_ns ? ", SEL_IOCTL_CAP_USER_NS" : "");
		char *note = (fallback || e->merged) && e->sharers > 1 ?
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

		char *head, *rest;

		if (h->ambiguous) {
			n->ambiguous++;
			continue;
		}
		if (!h->object) {
			n->unbound++;
			continue;
		}
		/* A handler without commands of its own is in the table all
		 * the same, unless it is a table kind's table (not a function):
		 * the kernel then knows the file's handler, looks in the
		 * second-level handler it hands the command to
		 * (posix_clock_ioctl: the clock's), and leaves a command found
		 * nowhere to today's checks. Left out, such a handler's files
		 * would take the fallback, classes other handlers give the
		 * same values. */
		if (!h->ents.len && kind_in(h->kind, entry_kinds, sizeof(entry_kinds) / sizeof(entry_kinds[0])))
			continue;
		vec_sort(&h->ents, entry_cmp);
		fprintf(body, "\t/* %s (%s) */\n%s", h->name, h->file,
			h->ents.len ? "" : "\t/* no command of its own */\n");
		for (size_t k = 0; k < NR_MERGED_KINDS; k++)
			if (!strcmp(h->name, merged_kinds[k].under))
				fprintf(body, "\t/* with every %s's commands, merged */\n",
					merged_kinds[k].kind);
		emit_entries(body, &h->ents, n, 0);
		n->always += !strcmp(h->builtin, "1");
		head = xasprintf("\t{ \"%s\", \"%s\",", h->name, h->object);
		rest = xasprintf("%s, %zu, %zu, %zu },", h->module, first, exact_count(&h->ents),
				 h->ents.len - exact_count(&h->ents));
		/* the kernel's 100 columns: else one line for each part, and the
		 * module expression apart from the numbers when that is too long
		 * (pppox: three options) */
		if (8 + 2 + strlen(rest) > 100) {
			free(rest);
			rest = xasprintf("%s,\n\t  %zu, %zu, %zu },", h->module, first,
					 exact_count(&h->ents), h->ents.len - exact_count(&h->ents));
		}
		strvec_push(index, 8 + strlen(head) + strlen(h->builtin) + strlen(rest) + 4 > 100 ||
				   strchr(rest, '\n') ?
			    xasprintf("%s\n\t  %s,\n\t  %s\n", head, h->builtin, rest) :
			    xasprintf("%s %s, %s\n", head, h->builtin, rest));
		free(head);
		free(rest);
		first += h->ents.len;
		n->handlers++;
	}
	vec_sort(fb, entry_cmp);
	fprintf(body, "\t/* fallback: each value merged over every handler that serves it */\n");
	emit_entries(body, fb, n, 1);
	*fallback = xasprintf("const struct sel_ioctl_handler sel_ioctl_fallback = {\n"
			      "\tNULL, NULL, 0, 0, %zu, %zu, %zu\n};\n", first, exact_count(fb),
			      fb->len - exact_count(fb));
	fprintf(body, "};\n\n");
}

static int write_table(FILE *fp, FILE *stats, json_t *report, handlervec *hs, entryvec *fb,
		       int not_looked_up)
{
	struct counts n;
	strvec index = { 0 };
	char *text = NULL, *fallback = NULL;
	size_t len = 0;
	FILE *mem;

	memset(&n, 0, sizeof(n));
	n.not_looked_up = not_looked_up;
	mem = open_memstream(&text, &len);
	if (!mem)
		return -1;
	emit(mem, hs, fb, &n, &index, &fallback);
	fclose(mem);

	fprintf(fp, "// SPDX-License-Identifier: GPL-2.0-only\n/*\n"
		" * ioctl commands of Linux %s and what they do, generated by\n"
		" * ioctl-scan %s from the kernel source (%s, %s).\n"
		" * Do not edit: regenerate with `make generate` in ioctl-scan.\n *\n"
		" * %d handlers (%d of them always built in), %d exact entries and %d\n"
		" * families; fallback: %d exact entries and %d families, %d of them\n"
		" * values served by more than one handler. Left to the fallback: %d\n"
		" * handlers not bound to one object, %d ambiguous names.\n"
		" * Not in the table: %d handlers of kinds the lookup does not reach.\n"
		" * Entries per class: read %d, modify %d, admin %d, none (unknown) %d.\n */\n",
		json_string_value(json_object_get(json_object_get(report, "kernel"), "release")),
		IOCTL_SCAN_VERSION,
		json_string_value(json_object_get(json_object_get(report, "config"), "name")),
		json_string_value(json_object_get(json_object_get(report, "config"), "arch")),
		n.handlers, n.always, n.exact, n.families, n.fb_exact, n.fb_families, n.collide,
		n.unbound, n.ambiguous, n.not_looked_up, n.per_cls[CLASS_READ], n.per_cls[CLASS_MODIFY], n.per_cls[CLASS_ADMIN], n.per_cls[CLASS_UNKNOWN]);
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
		n.handlers, n.exact, n.families, n.per_cls[CLASS_READ], n.per_cls[CLASS_MODIFY],
		n.per_cls[CLASS_ADMIN], n.per_cls[CLASS_UNKNOWN]);
	fprintf(stats, "fallback: %d exact entries, %d families; %d values served by more than one handler\n",
	       n.fb_exact, n.fb_families, n.collide);
	fprintf(stats, "fallback only: %d handlers not bound to one object, "
		"%d ambiguous names\n", n.unbound, n.ambiguous);
	fprintf(stats, "left out: %d handlers of kinds the kernel's lookup does not reach\n",
		n.not_looked_up);
	return 0;
}

/* The lookup that reaches a kind's commands, for --config. */
enum lookup { LOOKUP_SYSCALL, LOOKUP_FILE, LOOKUP_SECOND, NR_LOOKUPS };

static const char *const lookup_names[NR_LOOKUPS] = { "syscall", "file",
						     "disk, tty, clock, socket or DRM driver" };

static enum lookup lookup_of(const char *name, const char *kind)
{
	for (size_t k = 0; k < sizeof(handed_last) / sizeof(handed_last[0]); k++)
		if (!strcmp(name, handed_last[k].as))
			return LOOKUP_SECOND;
	if (starts_with(kind, "vfs"))
		return LOOKUP_SYSCALL;
	return strchr(kind, '.') ? LOOKUP_SECOND : LOOKUP_FILE;
}

enum linked { LINK_ABSENT, LINK_BUILTIN, LINK_MODULE, LINK_UNBOUND, NR_LINKS };

/* How the configuration whose =y/=m symbols are `set` links h's object,
 * as the kernel reads the table's IS_BUILTIN()/IS_MODULE() pair. */
static enum linked linked_in(const struct table_handler *h, const strvec *y, const strvec *m)
{
	enum linked l = LINK_ABSENT;
	json_t *o;
	size_t i;

	if (!h->object)
		return LINK_UNBOUND;
	json_array_foreach(h->objects, i, o) {
		const char *config = json_string_value(json_object_get(o, "config"));

		if (!config || strvec_contains(y, config))
			return LINK_BUILTIN;
		if (strvec_contains(m, config))
			l = LINK_MODULE;
	}
	return l;
}

/* --config FILE: what the table serves on a kernel built with that .config
 * (Debian's, for one): its handlers by how they are linked, and the entries
 * of each lookup path. */
static int config_figures(const char *path, const handlervec *hs)
{
	static const char *const names[NR_LINKS] = { "not built", "built in", "modules",
						     "not bound to one object (fallback)" };
	char *text = read_file(path, NULL), *line, *save = NULL;
	strvec y = { 0 }, m = { 0 };
	static const enum linked order[] = { LINK_BUILTIN, LINK_MODULE, LINK_ABSENT, LINK_UNBOUND };
	int handlers[NR_LINKS] = { 0 }, entries[NR_LINKS][NR_LOOKUPS] = { { 0 } };

	if (!text) {
		fprintf(stderr, "ioctl-scan: cannot read configuration %s\n", path);
		return 2;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (starts_with(line, "CONFIG_") && eq && (eq[1] == 'y' || eq[1] == 'm') && !eq[2]) {
			*eq = '\0';
			strvec_push(eq[1] == 'y' ? &y : &m, line);
		}
	}
	free(text);
	if (!y.len && !m.len) {
		fprintf(stderr, "ioctl-scan: %s: no CONFIG_ option set to y or m\n", path);
		return 2;
	}
	for (size_t i = 0; i < hs->len; i++) {
		const struct table_handler *h = &hs->items[i];
		enum linked l = linked_in(h, &y, &m);

		if (!h->ents.len)
			continue;
		handlers[l]++;
		entries[l][lookup_of(h->name, h->kind)] += (int)h->ents.len;
	}
	printf("with %s (%zu options =y, %zu =m):\n", path, y.len, m.len);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		enum linked l = order[k];

		printf("  %s: %d handlers; entries by lookup:", names[l], handlers[l]);
		for (int p = 0; p < NR_LOOKUPS; p++)
			printf(" %s %d%s", lookup_names[p], entries[l][p], p + 1 < NR_LOOKUPS ? "," : "\n");
	}
	strvec_clear(&y);
	strvec_clear(&m);
	return 0;
}

int cmd_table(int argc, char **argv)
{
	static const char synopsis[] = "table REPORT [-o FILE] [--config DOTCONFIG]";
	const char *path, *out, *config = NULL;
	struct atomic_file af;
	handlervec hs = { 0 };
	entryvec fb = { 0 };
	json_t *r;
	int rc, not_looked_up = 0;

	for (int a = 1; a + 1 < argc; a++)
		if (!strcmp(argv[a], "--config")) {
			config = argv[a + 1];
			memmove(&argv[a], &argv[a + 2], (size_t)(argc - a - 2) * sizeof(*argv));
			argc -= 2;
			break;
		}
	if (report_args(argc, argv, synopsis, &path, &out))
		return 2;
	if (config && access(config, R_OK)) {
		fprintf(stderr, "ioctl-scan: cannot read configuration %s: %s\n", config,
			strerror(errno));
		return 2;
	}
	r = report_load(path);
	if (!r)
		return 2;
	collect(r, &hs, &not_looked_up);
	for (size_t i = 0; i < hs.len; i++)
		for (size_t k = 0; k < hs.items[i].ents.len && !hs.items[i].private; k++)
			if (hs.items[i].ents.items[k].cls != CLASS_UNKNOWN &&
			    !hs.items[i].ents.items[k].merged &&
			    (is_exact(&hs.items[i].ents.items[k]) ||
			     fallback_safe(&hs.items[i].ents.items[k])))
				entry_merge(&fb, hs.items[i].ents.items[k]);
	if (out) {
		if (atomic_open(&af, out))
			return 2;
		rc = write_table(af.fp, stdout, r, &hs, &fb, not_looked_up);
		if (rc || atomic_commit(&af)) {
			atomic_abort(&af);
			fprintf(stderr, "ioctl-scan: cannot write %s\n", out);
			return 2;
		}
	} else {
		rc = write_table(stdout, stderr, r, &hs, &fb, not_looked_up) ? 2 : 0;
	}
	if (!rc && config)
		rc = config_figures(config, &hs);
	return rc;
}
