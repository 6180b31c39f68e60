/* The scan's result: handlers and their commands, as the report shows them. */
#ifndef IOCTL_SCAN_MODEL_H
#define IOCTL_SCAN_MODEL_H

#include "analysis_limits.h"
#include "facts.h"
#include "ioctl_class.h"
#include "kbuild_config.h"

struct evidence {
	char *kind;		/* "capability_check", "store", "user_copy_out", ... */
	char *what;
	char *file;
	unsigned line;
};

/* A function on the way from the handler to a command, and how many of
 * its top-level statements run before the dispatch goes on (its prologue). */
struct chain_link {
	const struct function_facts *fn;
	size_t prologue_len;
	int cmd_param;		/* the parameter holding the command there */
	const struct stmt *call;	/* the previous link's call to it; NULL for the handler */
	/* a parameter the dispatch binds to a constant: a table entry's
	 * flags handed on (drm_ioctl_kernel's flags) */
	int has_const;
	int const_param;
	int64_t const_value;
};

struct site_level {
	const struct stmt *block;
	size_t index;
};

struct command_site {
	struct chain_link chain[MAX_CHAIN];
	int chain_len;
	const struct function_facts *fn;
	const struct stmt *body;
	const struct stmt *dispatch;	/* the switch, when body is one of its segments */
	size_t segment;
	/* the blocks around the dispatch in fn, outermost first, the body
	 * itself left out (the chain's prologue_len covers it), each with
	 * the index of the statement that holds the dispatch: what comes
	 * before in them is on the path (ptp_ioctl's FMODE_WRITE test ahead
	 * of `else if (cmd == PTP_EXTTS_REQUEST)`), and when the command's
	 * code does not return, what follows runs too */
	struct site_level around[MAX_SITE_LEVELS];
	int naround;
	/* body is the whole of fn, a table entry's function the dispatch
	 * calls: when it returns, its caller goes on; or, chain_len 1, the
	 * handler itself, for a handler that never reads its command */
	int is_call;
	const char *table;	/* then the table the entry is in (drm_ioctls) */
};

struct command {
	char *name;
	uint64_t value, mask;
	char *file;		/* where the case label or comparison is */
	unsigned line;
	/* every place the command's own code is (a case body, the code after
	 * a comparison), in the order the dispatch reaches them */
	VEC(struct command_site) sites;
	/* classification */
	enum ioctl_class class;
	strvec capabilities;
	/* those of capabilities that every check of them asks in a user
	 * namespace the code chooses (ns_capable(sb->s_user_ns, X)), which
	 * need not be the initial one */
	strvec capabilities_in_user_ns;
	strvec conditional_capabilities;
	VEC(struct evidence) evidence;
	char *confidence;	/* "high" | "low" */
	/* a table entry's command: the objects the entry's function is
	 * linked into (entry_objects_known 0: the Makefiles do not say) */
	kbuild_objects entry_objects;
	int entry_objects_known;
};

struct handler {
	char *name;
	const char *kind;
	char *file;
	unsigned line;
	strvec fops;		/* "var (file:line)" of each ops initialiser */
	const struct function_facts *fn;
	int cmd_param;
	VEC(struct command) commands;
	char *default_action;	/* "error", "forward", "none", "other" */
	strvec forwards_to;	/* callees or ops members the default reaches */
	char *forwarder_of;	/* compat_ptr_ioctl: the handler it forwards to */
	strvec unresolved;	/* functions receiving the command, not parsed */
	/* a handler of a table kind (drm_driver.ioctls): the table; fn is
	 * its dispatcher */
	const struct table_init *table;
	/* the objects (modules, or vmlinux) the handler's file is linked
	 * into; objects_known is 0 when the Makefiles do not say */
	kbuild_objects objects;
	int objects_known;
};

void command_free(struct command *c);
void handler_free(struct handler *h);

#endif
