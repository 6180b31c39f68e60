/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What each ioctl command does to its object, from a table generated from
 * the kernel source by ioctl-scan, and the permission it requires.
 */
#ifndef _SELINUX_IOCTL_SEMANTICS_H_
#define _SELINUX_IOCTL_SEMANTICS_H_

#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/compiler.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/user_namespace.h>

#include "objsec.h"

enum sel_ioctl_class {
	SEL_IOCTL_NONE,		/* not in the table: today's checks only */
	SEL_IOCTL_READ,		/* requires file:read */
	SEL_IOCTL_MODIFY,	/* requires file:write */
	SEL_IOCTL_ADMIN,	/* file:write and capability { cap } */
};

enum sel_ioctl_mode {
	SEL_IOCTL_OFF,
	SEL_IOCTL_AUDIT,	/* log what would be denied, allow it */
	SEL_IOCTL_ENFORCE,
};

/* Which lookup found the command, for the counters. */
enum sel_ioctl_path {
	SEL_IOCTL_PATH_VFS,	/* handled by the ioctl syscall itself */
	SEL_IOCTL_PATH_FILE,	/* the file's ioctl handler */
	SEL_IOCTL_PATH_DEVICE,	/* the disk's or tty driver's handler */
	SEL_IOCTL_PATH_FALLBACK, /* handler unknown: merged over handlers */
	SEL_IOCTL_PATH_MISS,	/* not in the table */
	SEL_IOCTL_NR_PATHS,
};

/* The counters: one per path, then these. */
enum {
	SEL_IOCTL_CNT_LOOKUPS = SEL_IOCTL_NR_PATHS,
	SEL_IOCTL_CNT_DENIED,
	SEL_IOCTL_CNT_AUDITED,
	SEL_IOCTL_NR_COUNTERS,
};

/* One command: (cmd & mask) == value. */
struct sel_ioctl_cmd {
	u32 value;
	u32 mask;
	u8 class;		/* enum sel_ioctl_class */
	u8 cap;			/* CAP_* an admin command requires */
	u8 flags;
};

/*
 * sel_ioctl_cmd.flags: the driver checks @cap in a user namespace of its
 * choosing, ns_capable(ns, cap), which need not be the initial one
 * (FIFREEZE: the superblock's), not with capable().
 */
#define SEL_IOCTL_CAP_USER_NS	BIT(0)

/* How the configuration links the object a handler is compiled into. */
enum sel_ioctl_link {
	SEL_IOCTL_ABSENT,	/* not built: the entry is never used */
	SEL_IOCTL_BUILTIN,	/* vmlinux: resolved through kallsyms at boot */
	SEL_IOCTL_MODULE,	/* resolved in the module's symbols at load */
};

/*
 * The commands of one ioctl function: sel_ioctl_cmds[first...] holds
 * @exact entries with a full mask sorted by value, then @families entries.
 * The function is @name in the object @object (its KBUILD_MODNAME), which
 * this configuration builds in (@builtin) or as a module (@module): the
 * generator writes IS_BUILTIN() and IS_MODULE() of the option that builds
 * it, or-ed over the options when two build the same object; built in
 * wins, as in Kbuild.  Sorted by name.
 */
struct sel_ioctl_handler {
	const char *name;
	const char *object;
	u8 builtin;
	u8 module;
	u16 first;
	u16 exact;
	u16 families;
};

/* A handler's address, resolved from its name and object. */
struct sel_ioctl_addr {
	unsigned long addr;
	u16 handler;
};

/* The generated table (ioctl_semantics_table.c) */
extern const struct sel_ioctl_cmd sel_ioctl_cmds[];
extern const struct sel_ioctl_handler sel_ioctl_handlers[];
extern const unsigned int sel_ioctl_nr_handlers;
extern const struct sel_ioctl_handler sel_ioctl_fallback;
extern struct sel_ioctl_addr sel_ioctl_addrs[];

/*
 * What the lookup found: the class and capability, which lookup found it
 * and, unless that was the fallback or a miss, the handler
 * (sel_ioctl_handlers[] index), for the audit record.
 */
struct sel_ioctl_result {
	enum sel_ioctl_class class;
	enum sel_ioctl_path path;
	u16 handler;
	u8 cap;
	bool cap_user_ns;
};

#ifdef CONFIG_SECURITY_SELINUX_IOCTL_SEMANTICS
extern int sel_ioctl_mode_value;

/* Read on every ioctl: inline, so that off costs one load. */
static inline enum sel_ioctl_mode sel_ioctl_mode(void)
{
	return READ_ONCE(sel_ioctl_mode_value);
}

DECLARE_PER_CPU(unsigned long[SEL_IOCTL_NR_COUNTERS], sel_ioctl_counters);

/*
 * The last command looked up on a file and its result, in one word of the
 * file's security blob, so that a program repeating an ioctl does not
 * search the table again.  A file's f_op can change while it is open (tty
 * hangup, sound card disconnect), so the result is kept with the f_op it
 * was found for; a reader that sees the word change while it compares the
 * f_op does not use it.
 */
#define SEL_IOCTL_CACHE_CLASS	GENMASK_ULL(1, 0)
#define SEL_IOCTL_CACHE_PATH	GENMASK_ULL(4, 2)
#define SEL_IOCTL_CACHE_CAP	GENMASK_ULL(10, 5)
#define SEL_IOCTL_CACHE_COMPAT	BIT_ULL(11)
#define SEL_IOCTL_CACHE_VALID	BIT_ULL(12)
#define SEL_IOCTL_CACHE_BUSY	BIT_ULL(13)
#define SEL_IOCTL_CACHE_HANDLER	GENMASK_ULL(29, 14)
#define SEL_IOCTL_CACHE_CAP_USER_NS	BIT_ULL(30)
#define SEL_IOCTL_CACHE_CMD	GENMASK_ULL(63, 32)
#define SEL_IOCTL_CACHE_KEY	(SEL_IOCTL_CACHE_CMD | SEL_IOCTL_CACHE_COMPAT | \
				 SEL_IOCTL_CACHE_VALID)

static inline bool sel_ioctl_cache_get(struct file_security_struct *fsec,
				       const struct file_operations *fop,
				       u64 key, u64 *entry)
{
	u64 e = atomic64_read_acquire(&fsec->ioctl_cache);

	*entry = e;
	if ((e & SEL_IOCTL_CACHE_KEY) != key ||
	    READ_ONCE(fsec->ioctl_fop) != fop)
		return false;
	/* the f_op before the word again: see sel_ioctl_lookup_slow() */
	smp_rmb();
	return atomic64_read(&fsec->ioctl_cache) == e;
}

u64 sel_ioctl_lookup_slow(struct file *file, const struct file_operations *fop,
			  unsigned int cmd, bool compat, u64 key, u64 old);

/*
 * What @cmd does on @file.  Called on every ioctl: the file's cache is
 * read inline, the table searched out of line.
 */
static inline void sel_ioctl_lookup(struct file *file, unsigned int cmd,
				    bool compat, struct sel_ioctl_result *res)
{
	struct file_security_struct *fsec = selinux_file(file);
	const struct file_operations *fop = READ_ONCE(file->f_op);
	u64 key = FIELD_PREP(SEL_IOCTL_CACHE_CMD, cmd) |
		  (compat ? SEL_IOCTL_CACHE_COMPAT : 0) | SEL_IOCTL_CACHE_VALID;
	u64 e;

	if (!sel_ioctl_cache_get(fsec, fop, key, &e))
		e = sel_ioctl_lookup_slow(file, fop, cmd, compat, key, e);
	res->path = FIELD_GET(SEL_IOCTL_CACHE_PATH, e);
	this_cpu_inc(sel_ioctl_counters[res->path]);
	res->class = FIELD_GET(SEL_IOCTL_CACHE_CLASS, e);
	res->handler = FIELD_GET(SEL_IOCTL_CACHE_HANDLER, e);
	res->cap = FIELD_GET(SEL_IOCTL_CACHE_CAP, e);
	res->cap_user_ns = e & SEL_IOCTL_CACHE_CAP_USER_NS;
}

void sel_ioctl_describe(const struct sel_ioctl_result *res,
			const char **class, const char **handler,
			const char **object, const char **lookup);
void sel_ioctl_count_denial(bool enforced);
int sel_ioctl_set_mode(const char *buf);
ssize_t sel_ioctl_show_stats(char *buf, size_t size);
#else
static inline enum sel_ioctl_mode sel_ioctl_mode(void)
{
	return SEL_IOCTL_OFF;
}

static inline void sel_ioctl_lookup(struct file *file, unsigned int cmd,
				    bool compat, struct sel_ioctl_result *res)
{
	res->class = SEL_IOCTL_NONE;
	res->path = SEL_IOCTL_PATH_MISS;
	res->handler = 0;
	res->cap = 0;
	res->cap_user_ns = false;
}

static inline void sel_ioctl_describe(const struct sel_ioctl_result *res,
				      const char **class, const char **handler,
				      const char **object, const char **lookup)
{
	*class = *handler = *object = *lookup = "?";
}

static inline void sel_ioctl_count_denial(bool enforced)
{
}
#endif

/*
 * Whether an admin command's capability is asked in the initial user
 * namespace's class (capability, capability2) or in a user namespace's
 * (cap_userns, cap2_userns), as cred_has_capability() asks for the driver's
 * own check.  A driver that calls capable() checks the initial namespace.
 * One that calls ns_capable() on a namespace of its choosing grants the
 * capability only in the caller's user namespace or one below it, so for a
 * caller outside the initial namespace its check is never made in the
 * initial one: cap_userns.  A caller in the initial namespace is asked
 * capability, which is what the driver asks unless the object belongs to a
 * namespace below (then this is the stricter of the two).
 */
static inline bool sel_ioctl_cap_initns(const struct sel_ioctl_result *res)
{
	return !res->cap_user_ns || current_user_ns() == &init_user_ns;
}

#endif /* _SELINUX_IOCTL_SEMANTICS_H_ */
