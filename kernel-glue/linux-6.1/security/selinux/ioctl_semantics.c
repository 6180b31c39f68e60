// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ioctl command semantics: what a command does to its object, looked up in
 * a table generated from the kernel source (ioctl_semantics_table.c).
 *
 * A command value alone does not say which driver serves it, so the table
 * lists the commands of each ioctl function by name and by the object
 * (KBUILD_MODNAME) the function is compiled into.  The names of built-in
 * objects are resolved to addresses through kallsyms at boot (a name
 * kallsyms lists twice is dropped); the names of a module's functions are
 * resolved in that module's own symbols when it loads, and dropped when it
 * goes, so that a function of the same name elsewhere never takes another
 * driver's entries.  An ioctl is then looked up by the address of the
 * function that will serve it: the syscall's own commands first, then the
 * file's ioctl handler, then for block devices the disk's and for ttys the
 * tty driver's and the line discipline's. A file whose handler is not in
 * the table (an object the generator could not name, an ambiguous name)
 * uses the fallback entries, which merge each value over every handler
 * that serves it to the most restrictive class.  A command
 * whose semantics the generator could not establish has a SEL_IOCTL_NONE
 * entry in its handler's slice: the search ends there and the command keeps
 * today's checks.
 * A handler that serves no command itself, handing every one to another
 * function (posix_clock_ioctl(), fuse's), is in the table all the same,
 * with no entries of its own: its files never take the fallback, and a
 * command found nowhere keeps today's checks.
 *
 * The ioctl path does no allocation and does not sleep: two binary searches
 * over read-only data and a short scan of the size-encoded families.  A
 * program repeating a command on a file does not pay even that: the last
 * command looked up and its result are kept with the file.
 */

#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/blkdev.h>
#include <linux/cache.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/tty.h>
#include <linux/tty_ldisc.h>

#include "objsec.h"
#include "ioctl_semantics.h"

int sel_ioctl_mode_value __read_mostly =
	CONFIG_SECURITY_SELINUX_IOCTL_SEMANTICS_MODE;

static unsigned int sel_ioctl_nr_addrs __ro_after_init;
/* the handlers are resolved: a lookup's result may be kept with the file */
static bool sel_ioctl_resolved __ro_after_init;

/*
 * The handlers of the loaded modules, sorted by address.  Replaced as a
 * whole, under sel_ioctl_modules_lock, when a module comes or goes; read
 * under RCU.
 */
struct sel_ioctl_module_addrs {
	struct rcu_head rcu;
	unsigned int nr;
	struct sel_ioctl_addr addrs[];
};

static struct sel_ioctl_module_addrs __rcu *sel_ioctl_module_addrs;

/* ioctl functions that hand commands on to a second-level handler */
static unsigned long sel_blkdev_ioctl __ro_after_init;
static unsigned long sel_blkdev_compat_ioctl __ro_after_init;
static unsigned long sel_tty_ioctl __ro_after_init;
static unsigned long sel_tty_compat_ioctl __ro_after_init;

/* the syscall's own commands, before any file's handler sees them */
static const struct sel_ioctl_handler *sel_vfs __ro_after_init;
static const struct sel_ioctl_handler *sel_vfs_compat __ro_after_init;

DEFINE_PER_CPU(unsigned long[SEL_IOCTL_NR_COUNTERS], sel_ioctl_counters);

static const char *const sel_ioctl_mode_names[] = {
	[SEL_IOCTL_OFF] = "off",
	[SEL_IOCTL_AUDIT] = "audit",
	[SEL_IOCTL_ENFORCE] = "enforce",
};

/* what the audit record says a command does and which lookup found it */
static const char *const sel_ioctl_class_names[] = {
	[SEL_IOCTL_NONE] = "none",
	[SEL_IOCTL_READ] = "read",
	[SEL_IOCTL_MODIFY] = "modify",
	[SEL_IOCTL_ADMIN] = "admin",
};

static const char *const sel_ioctl_path_names[] = {
	[SEL_IOCTL_PATH_VFS] = "vfs",
	[SEL_IOCTL_PATH_FILE] = "file",
	[SEL_IOCTL_PATH_DEVICE] = "device",
	[SEL_IOCTL_PATH_FALLBACK] = "fallback",
	[SEL_IOCTL_PATH_MISS] = "none",
};

static const char *const sel_ioctl_counter_names[] = {
	[SEL_IOCTL_PATH_VFS] = "hits_vfs",
	[SEL_IOCTL_PATH_FILE] = "hits_file",
	[SEL_IOCTL_PATH_DEVICE] = "hits_device",
	[SEL_IOCTL_PATH_FALLBACK] = "hits_fallback",
	[SEL_IOCTL_PATH_MISS] = "misses",
	[SEL_IOCTL_CNT_LOOKUPS] = "lookups",
	[SEL_IOCTL_CNT_DENIED] = "denied",
	[SEL_IOCTL_CNT_AUDITED] = "audited",
};

static int __init sel_ioctl_mode_setup(char *str)
{
	int i = match_string(sel_ioctl_mode_names,
			     ARRAY_SIZE(sel_ioctl_mode_names), str);

	if (i < 0)
		pr_warn("SELinux: unknown selinux_ioctl_semantics=%s\n", str);
	else
		sel_ioctl_mode_value = i;
	return 1;
}
__setup("selinux_ioctl_semantics=", sel_ioctl_mode_setup);

int sel_ioctl_set_mode(const char *buf)
{
	int i = sysfs_match_string(sel_ioctl_mode_names, buf);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(sel_ioctl_mode_value, i);
	return 0;
}

void sel_ioctl_count_denial(bool enforced)
{
	this_cpu_inc(sel_ioctl_counters[enforced ? SEL_IOCTL_CNT_DENIED :
					SEL_IOCTL_CNT_AUDITED]);
}

/*
 * For an audit record, the names of what the lookup found: the class, the
 * handler that serves the command and the object it is compiled into (as
 * the table names them; "?" for the fallback, which merges handlers), and
 * the lookup that found it.
 */
void sel_ioctl_describe(const struct sel_ioctl_result *res,
			const char **class, const char **handler,
			const char **object, const char **lookup)
{
	const struct sel_ioctl_handler *h = NULL;

	if (res->path != SEL_IOCTL_PATH_FALLBACK &&
	    res->path != SEL_IOCTL_PATH_MISS &&
	    res->handler < sel_ioctl_nr_handlers)
		h = &sel_ioctl_handlers[res->handler];
	*class = sel_ioctl_class_names[res->class];
	*handler = h ? h->name : "?";
	*object = h ? h->object : "?";
	*lookup = sel_ioctl_path_names[res->path];
}

ssize_t sel_ioctl_show_stats(char *buf, size_t size)
{
	unsigned long sum[SEL_IOCTL_NR_COUNTERS] = { 0 };
	const struct sel_ioctl_module_addrs *m;
	ssize_t len;
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < SEL_IOCTL_NR_COUNTERS; i++)
			sum[i] += per_cpu(sel_ioctl_counters, cpu)[i];
	/* every lookup ends in exactly one path */
	for (i = 0; i < SEL_IOCTL_NR_PATHS; i++)
		sum[SEL_IOCTL_CNT_LOOKUPS] += sum[i];

	len = scnprintf(buf, size, "mode %s\nhandlers %u\nresolved %u\n",
			sel_ioctl_mode_names[sel_ioctl_mode()],
			sel_ioctl_nr_handlers, sel_ioctl_nr_addrs);
	rcu_read_lock();
	m = rcu_dereference(sel_ioctl_module_addrs);
	len += scnprintf(buf + len, size - len, "resolved_in_modules %u\n",
			 m ? m->nr : 0);
	rcu_read_unlock();
	for (i = 0; i < SEL_IOCTL_NR_COUNTERS; i++)
		len += scnprintf(buf + len, size - len, "%s %lu\n",
				 sel_ioctl_counter_names[i], sum[i]);
	return len;
}

static const struct sel_ioctl_cmd *
sel_ioctl_find(const struct sel_ioctl_handler *h, u32 cmd)
{
	const struct sel_ioctl_cmd *c = sel_ioctl_cmds + h->first;
	unsigned int lo = 0, hi = h->exact, i;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (c[mid].value == cmd)
			return &c[mid];
		if (c[mid].value < cmd)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* families, the most specific mask first */
	for (i = h->exact; i < h->exact + h->families; i++)
		if ((cmd & c[i].mask) == c[i].value)
			return &c[i];
	return NULL;
}

static const struct sel_ioctl_handler *
sel_ioctl_addr_find(const struct sel_ioctl_addr *a, unsigned int nr,
		    unsigned long fn)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (a[mid].addr == fn)
			return &sel_ioctl_handlers[a[mid].handler];
		if (a[mid].addr < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct sel_ioctl_handler *sel_ioctl_handler_at(unsigned long fn)
{
	const struct sel_ioctl_module_addrs *m;
	const struct sel_ioctl_handler *h;

	if (!fn)
		return NULL;
	h = sel_ioctl_addr_find(sel_ioctl_addrs, sel_ioctl_nr_addrs, fn);
	if (h || !IS_ENABLED(CONFIG_MODULES))
		return h;
	rcu_read_lock();
	m = rcu_dereference(sel_ioctl_module_addrs);
	if (m)
		h = sel_ioctl_addr_find(m->addrs, m->nr, fn);
	rcu_read_unlock();
	return h;
}

/* The entry for @cmd of the handler at @fn, which *@hp is set to. */
static const struct sel_ioctl_cmd *
sel_ioctl_find_at(unsigned long fn, u32 cmd,
		  const struct sel_ioctl_handler **hp)
{
	*hp = sel_ioctl_handler_at(fn);
	return *hp ? sel_ioctl_find(*hp, cmd) : NULL;
}

/*
 * The tty driver's handler, then the line discipline's.  The line
 * discipline can change (TIOCSETD), so a result that depends on it is not
 * kept with the file.
 */
static const struct sel_ioctl_cmd *
sel_ioctl_find_tty(struct file *file, u32 cmd, bool compat,
		   const struct sel_ioctl_handler **hp, bool *keep)
{
	struct tty_file_private *priv = file->private_data;
	struct tty_struct *tty = priv ? priv->tty : NULL;
	const struct sel_ioctl_cmd *c;
	struct tty_ldisc *ld;

	if (!tty)
		return NULL;
	c = sel_ioctl_find_at(compat ? (unsigned long)tty->ops->compat_ioctl :
			      (unsigned long)tty->ops->ioctl, cmd, hp);
	if (c)
		return c;
	*keep = false;
	ld = tty_ldisc_ref(tty);
	if (!ld)
		return NULL;
	c = sel_ioctl_find_at(compat ? (unsigned long)ld->ops->compat_ioctl :
			      (unsigned long)ld->ops->ioctl, cmd, hp);
	tty_ldisc_deref(ld);
	return c;
}

static const struct sel_ioctl_cmd *
sel_ioctl_find_blkdev(struct file *file, u32 cmd, bool compat,
		      const struct sel_ioctl_handler **hp)
{
	const struct block_device_operations *ops;

	ops = I_BDEV(file->f_mapping->host)->bd_disk->fops;
	return sel_ioctl_find_at(compat ? (unsigned long)ops->compat_ioctl :
				 (unsigned long)ops->ioctl, cmd, hp);
}

static const struct sel_ioctl_cmd *
sel_ioctl_find_all(struct file *file, const struct file_operations *fop,
		   u32 cmd, bool compat, enum sel_ioctl_path *path,
		   const struct sel_ioctl_handler **hp, bool *keep)
{
	const struct sel_ioctl_handler *h;
	const struct sel_ioctl_cmd *c;
	unsigned long fn;

	*path = SEL_IOCTL_PATH_VFS;
	*hp = sel_vfs_compat;
	if (compat && sel_vfs_compat) {
		c = sel_ioctl_find(sel_vfs_compat, cmd);
		if (c)
			return c;
	}
	*hp = sel_vfs;
	if (sel_vfs) {
		c = sel_ioctl_find(sel_vfs, cmd);
		if (c)
			return c;
	}

	fn = (unsigned long)(compat ? fop->compat_ioctl : fop->unlocked_ioctl);
#ifdef CONFIG_COMPAT
	/* compat_ptr_ioctl passes the command on unchanged */
	if (compat && fop->compat_ioctl == compat_ptr_ioctl)
		fn = (unsigned long)fop->unlocked_ioctl;
#endif
	/* no handler: the ioctl fails with ENOTTY, as without the table */
	if (!fn)
		return NULL;
	h = sel_ioctl_handler_at(fn);
	*hp = h;
	if (!h) {
		*path = SEL_IOCTL_PATH_FALLBACK;
		return sel_ioctl_find(&sel_ioctl_fallback, cmd);
	}
	*path = SEL_IOCTL_PATH_FILE;
	c = sel_ioctl_find(h, cmd);
	if (c)
		return c;

	*path = SEL_IOCTL_PATH_DEVICE;
	if (fn == (compat ? sel_blkdev_compat_ioctl : sel_blkdev_ioctl))
		return sel_ioctl_find_blkdev(file, cmd, compat, hp);
	if (fn == (compat ? sel_tty_compat_ioctl : sel_tty_ioctl))
		return sel_ioctl_find_tty(file, cmd, compat, hp, keep);
	return NULL;
}

/*
 * The lookup that sel_ioctl_lookup() makes when the file's cache does not
 * hold @cmd: returns the entry to use, and keeps it in the cache when it
 * does not depend on state that can change under the open file.  @old is
 * the cache word that was read.
 */
u64 sel_ioctl_lookup_slow(struct file *file, const struct file_operations *fop,
			  unsigned int cmd, bool compat, u64 key, u64 old)
{
	struct file_security_struct *fsec = selinux_file(file);
	const struct sel_ioctl_handler *h = NULL;
	const struct sel_ioctl_cmd *c;
	enum sel_ioctl_path path;
	bool keep = sel_ioctl_resolved;
	u64 e;

	BUILD_BUG_ON(FIELD_MAX(SEL_IOCTL_CACHE_PATH) < SEL_IOCTL_NR_PATHS - 1);
	BUILD_BUG_ON(FIELD_MAX(SEL_IOCTL_CACHE_CAP) < CAP_LAST_CAP);
	/* sel_ioctl_addr.handler is a u16 as well */
	BUILD_BUG_ON(FIELD_MAX(SEL_IOCTL_CACHE_HANDLER) < U16_MAX);

	c = sel_ioctl_find_all(file, fop, cmd, compat, &path, &h, &keep);
	/* a SEL_IOCTL_NONE entry: served here, semantics unknown */
	if (!c || c->class == SEL_IOCTL_NONE)
		e = FIELD_PREP(SEL_IOCTL_CACHE_PATH, SEL_IOCTL_PATH_MISS);
	else
		e = FIELD_PREP(SEL_IOCTL_CACHE_CLASS, c->class) |
		    FIELD_PREP(SEL_IOCTL_CACHE_PATH, path) |
		    FIELD_PREP(SEL_IOCTL_CACHE_CAP, c->cap) |
		    (c->flags & SEL_IOCTL_CAP_USER_NS ?
		     SEL_IOCTL_CACHE_CAP_USER_NS : 0) |
		    FIELD_PREP(SEL_IOCTL_CACHE_HANDLER,
			       path == SEL_IOCTL_PATH_FALLBACK || !h ? 0 :
			       h - sel_ioctl_handlers);
	e |= key;
	/*
	 * A writer claims the word with cmpxchg before it stores the f_op
	 * and then the result, so that an f_op and the result after it
	 * belong together (see sel_ioctl_cache_get()).
	 */
	if (keep && !(old & SEL_IOCTL_CACHE_BUSY) &&
	    atomic64_cmpxchg(&fsec->ioctl_cache, old, SEL_IOCTL_CACHE_BUSY) == old) {
		WRITE_ONCE(fsec->ioctl_fop, fop);
		atomic64_set_release(&fsec->ioctl_cache, e);
	}
	return e;
}

/* The first handler called @name, or sel_ioctl_nr_handlers. */
static unsigned int sel_ioctl_first_named(const char *name)
{
	unsigned int lo = 0, hi = sel_ioctl_nr_handlers;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (strcmp(sel_ioctl_handlers[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct sel_ioctl_handler * __init sel_ioctl_by_name(const char *name)
{
	unsigned int i = sel_ioctl_first_named(name);

	if (i < sel_ioctl_nr_handlers && !strcmp(sel_ioctl_handlers[i].name, name))
		return &sel_ioctl_handlers[i];
	return NULL;
}

/* A name seen twice (static functions of different files) is ambiguous. */
#define SEL_IOCTL_AMBIGUOUS ULONG_MAX

static enum sel_ioctl_link sel_ioctl_link_of(const struct sel_ioctl_handler *h)
{
	if (h->builtin)
		return SEL_IOCTL_BUILTIN;
	return h->module ? SEL_IOCTL_MODULE : SEL_IOCTL_ABSENT;
}

/*
 * Gives the handlers called @name in objects linked as @link (and, for a
 * module, in @object) the address @addr, in @addrs indexed by handler.
 */
static void sel_ioctl_bind(struct sel_ioctl_addr *addrs, const char *name,
			   unsigned long addr, enum sel_ioctl_link link,
			   const char *object)
{
	unsigned int i;

	for (i = sel_ioctl_first_named(name);
	     i < sel_ioctl_nr_handlers && !strcmp(sel_ioctl_handlers[i].name, name);
	     i++) {
		const struct sel_ioctl_handler *h = &sel_ioctl_handlers[i];
		struct sel_ioctl_addr *a = &addrs[i];

		if (sel_ioctl_link_of(h) != link ||
		    (object && strcmp(h->object, object)))
			continue;
		if (a->addr && a->addr != addr)
			a->addr = SEL_IOCTL_AMBIGUOUS;
		else
			a->addr = addr;
		a->handler = i;
	}
}

static int __init sel_ioctl_resolve_symbol(void *data, const char *name,
					   struct module *mod,
					   unsigned long addr)
{
	sel_ioctl_bind(sel_ioctl_addrs, name, addr, SEL_IOCTL_BUILTIN, NULL);
	return 0;
}

static int sel_ioctl_addr_cmp(const void *a, const void *b)
{
	const struct sel_ioctl_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/*
 * Keeps the resolved entries of @a, indexed by handler, at its start,
 * sorted by address; returns how many.
 */
static unsigned int sel_ioctl_pack(struct sel_ioctl_addr *a, unsigned int nr)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr; i++)
		if (a[i].addr && a[i].addr != SEL_IOCTL_AMBIGUOUS)
			a[n++] = a[i];
	sort(a, n, sizeof(*a), sel_ioctl_addr_cmp, NULL);
	return n;
}

#ifdef CONFIG_MODULES
static DEFINE_MUTEX(sel_ioctl_modules_lock);

static void sel_ioctl_modules_publish(struct sel_ioctl_module_addrs *new)
{
	struct sel_ioctl_module_addrs *old;

	old = rcu_replace_pointer(sel_ioctl_module_addrs, new,
				  lockdep_is_held(&sel_ioctl_modules_lock));
	if (old)
		kfree_rcu(old, rcu);
}

/*
 * @mod is coming: resolve the table's handlers of the object @mod->name in
 * the module's own symbols and add them to the loaded modules' handlers.
 * A name the module defines twice is dropped.  If memory runs short the
 * module's files use the fallback entries.
 */
static void sel_ioctl_module_coming(struct module *mod)
{
	struct sel_ioctl_module_addrs *old, *new;
	struct sel_ioctl_addr *found;
	const struct mod_kallsyms *ks;
	unsigned int i, n, nr_old;

	for (i = 0; i < sel_ioctl_nr_handlers; i++)
		if (sel_ioctl_link_of(&sel_ioctl_handlers[i]) == SEL_IOCTL_MODULE &&
		    !strcmp(sel_ioctl_handlers[i].object, mod->name))
			break;
	if (i == sel_ioctl_nr_handlers)
		return;

	found = kcalloc(sel_ioctl_nr_handlers, sizeof(*found), GFP_KERNEL);
	if (!found)
		return;
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; i < ks->num_symtab; i++)
		if (ELF_ST_TYPE(ks->symtab[i].st_info) == STT_FUNC &&
		    ks->symtab[i].st_shndx != SHN_UNDEF)
			sel_ioctl_bind(found, ks->strtab + ks->symtab[i].st_name,
				       ks->symtab[i].st_value, SEL_IOCTL_MODULE,
				       mod->name);
	preempt_enable();
	n = sel_ioctl_pack(found, sel_ioctl_nr_handlers);

	mutex_lock(&sel_ioctl_modules_lock);
	old = rcu_dereference_protected(sel_ioctl_module_addrs,
					lockdep_is_held(&sel_ioctl_modules_lock));
	nr_old = old ? old->nr : 0;
	new = n ? kmalloc(struct_size(new, addrs, nr_old + n), GFP_KERNEL) : NULL;
	if (new) {
		new->nr = nr_old + n;
		if (old)
			memcpy(new->addrs, old->addrs, nr_old * sizeof(*found));
		memcpy(new->addrs + nr_old, found, n * sizeof(*found));
		sort(new->addrs, new->nr, sizeof(*found), sel_ioctl_addr_cmp,
		     NULL);
		sel_ioctl_modules_publish(new);
	}
	mutex_unlock(&sel_ioctl_modules_lock);
	kfree(found);
}

/*
 * @mod is going: drop its handlers.  If memory runs short every module's
 * handlers are dropped: an address the module leaves must never match a
 * function loaded there later.
 */
static void sel_ioctl_module_going(struct module *mod)
{
	struct sel_ioctl_module_addrs *old, *new;
	unsigned int i, n = 0;

	mutex_lock(&sel_ioctl_modules_lock);
	old = rcu_dereference_protected(sel_ioctl_module_addrs,
					lockdep_is_held(&sel_ioctl_modules_lock));
	if (!old)
		goto out;
	for (i = 0; i < old->nr; i++)
		n += !within_module(old->addrs[i].addr, mod);
	if (n == old->nr)
		goto out;
	new = n ? kmalloc(struct_size(new, addrs, n), GFP_KERNEL) : NULL;
	if (new) {
		new->nr = 0;
		for (i = 0; i < old->nr; i++)
			if (!within_module(old->addrs[i].addr, mod))
				new->addrs[new->nr++] = old->addrs[i];
	}
	sel_ioctl_modules_publish(new);
out:
	mutex_unlock(&sel_ioctl_modules_lock);
}

static int sel_ioctl_module_notify(struct notifier_block *nb,
				   unsigned long action, void *data)
{
	struct module *mod = data;

	if (action == MODULE_STATE_COMING)
		sel_ioctl_module_coming(mod);
	else if (action == MODULE_STATE_GOING)
		sel_ioctl_module_going(mod);
	return NOTIFY_OK;
}

static struct notifier_block sel_ioctl_module_nb = {
	.notifier_call = sel_ioctl_module_notify,
};
#endif /* CONFIG_MODULES */

static int __init sel_ioctl_semantics_init(void)
{
	unsigned int n;

	kallsyms_on_each_symbol(sel_ioctl_resolve_symbol, NULL);
	n = sel_ioctl_pack(sel_ioctl_addrs, sel_ioctl_nr_handlers);
	sel_ioctl_nr_addrs = n;
	sel_ioctl_resolved = true;
#ifdef CONFIG_MODULES
	register_module_notifier(&sel_ioctl_module_nb);
#endif

	sel_blkdev_ioctl = kallsyms_lookup_name("blkdev_ioctl");
	sel_blkdev_compat_ioctl = kallsyms_lookup_name("compat_blkdev_ioctl");
	sel_tty_ioctl = kallsyms_lookup_name("tty_ioctl");
	sel_tty_compat_ioctl = kallsyms_lookup_name("tty_compat_ioctl");
	sel_vfs = sel_ioctl_by_name("do_vfs_ioctl");
	sel_vfs_compat = sel_ioctl_by_name("__do_compat_sys_ioctl");

	pr_info("SELinux: ioctl semantics: %u of %u handlers resolved, mode %s\n",
		n, sel_ioctl_nr_handlers, sel_ioctl_mode_names[sel_ioctl_mode()]);
	return 0;
}
late_initcall(sel_ioctl_semantics_init);
