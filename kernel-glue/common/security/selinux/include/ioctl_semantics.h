/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What each ioctl command does to its object, from a table generated from
 * the kernel source by ioctl-scan, and the permission it requires.
 */
#ifndef _SELINUX_IOCTL_SEMANTICS_H_
#define _SELINUX_IOCTL_SEMANTICS_H_

#include <linux/compiler.h>
#include <linux/types.h>

struct file;

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

/* One command: (cmd & mask) == value. */
struct sel_ioctl_cmd {
	u32 value;
	u32 mask;
	u8 class;		/* enum sel_ioctl_class */
	u8 cap;			/* CAP_* an admin command requires */
};

/*
 * The commands of one ioctl function: sel_ioctl_cmds[first...] holds
 * @exact entries with a full mask sorted by value, then @families entries.
 */
struct sel_ioctl_handler {
	const char *name;
	u16 first;
	u16 exact;
	u16 families;
};

/* A handler's address, resolved from its name at boot. */
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

struct sel_ioctl_result {
	enum sel_ioctl_class class;
	u8 cap;
};

#ifdef CONFIG_SECURITY_SELINUX_IOCTL_SEMANTICS
extern int sel_ioctl_mode_value;

/* Read on every ioctl: inline, so that off costs one load. */
static inline enum sel_ioctl_mode sel_ioctl_mode(void)
{
	return READ_ONCE(sel_ioctl_mode_value);
}

void sel_ioctl_lookup(struct file *file, unsigned int cmd, bool compat,
		      struct sel_ioctl_result *res);
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
	res->cap = 0;
}

static inline void sel_ioctl_count_denial(bool enforced)
{
}
#endif

#endif /* _SELINUX_IOCTL_SEMANTICS_H_ */
