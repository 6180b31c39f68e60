/* Kernel knowledge kept as data (analyzer/data, JSON): which ops structures
 * carry ioctl handlers, which macros name commands, and what kernel APIs do.
 * The code iterates these tables; adding a subsystem is a data change. */
#ifndef IOCTL_SCAN_KNOWLEDGE_H
#define IOCTL_SCAN_KNOWLEDGE_H

#include "util.h"

/* One way a handler is reached: a member of an ops structure, or a fixed
 * function that sees commands first (the VFS). */
struct handler_kind {
	char *kind;		/* "unlocked_ioctl", "tty_operations.ioctl" */
	char *struct_name;	/* NULL for a fixed function */
	char *field;
	char *function;		/* for fixed functions: "do_vfs_ioctl" */
	char *file;		/* where the fixed function is defined */
	int cmd_param;		/* index of the command parameter */
};

/* A generic handler that only forwards to another member of the same ops
 * structure (compat_ptr_ioctl forwards to unlocked_ioctl). */
struct forwarder {
	char *function;
	char *to_field;
};

struct knowledge {
	VEC(struct handler_kind) kinds;
	VEC(struct forwarder) forwarders;
	strvec macro_calls;	/* API macros recorded as calls: put_user */
};

/* Loads the data files from dir; on error prints a message and returns -1. */
int knowledge_load(struct knowledge *kn, const char *dir);
void knowledge_free(struct knowledge *kn);
const struct handler_kind *knowledge_kind_for(const struct knowledge *kn,
					      const char *struct_name,
					      const char *field);
const struct forwarder *knowledge_forwarder(const struct knowledge *kn,
					    const char *function);

#endif
