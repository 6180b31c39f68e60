/* Kernel knowledge kept as data (analyzer/data, JSON): which ops structures
 * carry ioctl handlers, which macros name commands, and what kernel APIs do.
 * The code iterates these tables; adding a subsystem is a data change. */
#ifndef IOCTL_SCAN_KNOWLEDGE_H
#define IOCTL_SCAN_KNOWLEDGE_H

#include "effect_kinds.h"
#include "request_codes.h"
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
	/* a command the handler declines (returns declined_value,
	 * -ENOIOCTLCMD) goes on to this ops member: tty_ioctl hands a tty
	 * driver's declined commands to the line discipline */
	char *declined_struct, *declined_field;
	int declined_cmd_param;
	int64_t declined_value;
	/* the member holds a table of command descriptors of this struct
	 * (drm_driver.ioctls: drm_ioctl_desc), not a function: the handler
	 * is the table, its dispatcher the function that indexes the
	 * member, cmd_param the command's parameter there */
	char *table_struct;
	/* the parameter that points to the core's own copy of the argument
	 * (dev_ioctl hands ndo_eth_ioctl sock_ioctl's copy of the ifreq):
	 * what the handler stores there is a reply, not state; or -1 */
	int arg_copy;
};

/* A struct whose static arrays pair a command with the function that
 * serves it (drm_ioctl_desc, DRM_IOCTL_DEF): a dispatcher picks an entry
 * by the command and calls its function, which never sees the command. */
struct table_kind {
	char *struct_name;
	char *command;		/* the member holding the command */
	char *function;		/* the member holding the function */
	char *flags;		/* a member of constant flags handed on, or NULL */
	/* the bits of the command that pick the entry: `(cmd & select) ==
	 * (entry.command & select)`; 0xff for an index by _IOC_NR */
	uint64_t select;
};

/* A generic handler that only forwards to another member of the same ops
 * structure (compat_ptr_ioctl forwards to unlocked_ioctl). */
struct forwarder {
	char *function;
	char *to_field;
};

/* What a kernel API does, each effect declared once: its name in the data
 * files (kernel_api.json, ops_contracts.json), the effect kind a call to
 * it records under the callee's name and the one it records through the
 * argument the entry names (effect_kinds.h; EF_NONE for none), what the
 * entry may write after the name, and whether an ops member's contract
 * may state it. An effect with neither kind has a rule of its own in
 * classify_calls.c (capability, hardware_read, ref_put) or does nothing
 * (neutral).
 *
 * X(effect, name, kind, arg_kind, takes, contract) */
#define API_EFFECTS(X)								\
	X(API_NEUTRAL, "neutral", EF_NONE, EF_NONE, API_TAKES_NOTHING, 1)	\
	X(API_USER_OUT, "user_out", EF_USER_OUT, EF_NONE, API_TAKES_NOTHING, 1)	\
	/* copy_from_user(dst, ...): "user_in:0" also stores into dst */	\
	X(API_USER_IN, "user_in", EF_USER_IN, EF_STORE, API_TAKES_ARG, 1)	\
	X(API_MODIFY, "modify", EF_API_MODIFY, EF_NONE, API_TAKES_NOTHING, 1)	\
	X(API_HARDWARE, "hardware", EF_HARDWARE, EF_NONE, API_TAKES_NOTHING, 1)	\
	X(API_LIFETIME, "lifetime", EF_LIFETIME, EF_NONE, API_TAKES_NOTHING, 1)	\
	/* stores through argument arg */					\
	X(API_WRITES_ARG, "writes_arg", EF_NONE, EF_STORE, API_NEEDS_ARG, 0)	\
	/* links or unlinks list entry arg */					\
	X(API_LINKS_ARG, "links_arg", EF_NONE, EF_LINK, API_NEEDS_ARG, 0)	\
	/* CAP_ argument at arg, or fixed caps */				\
	X(API_CAPABILITY, "capability", EF_NONE, EF_NONE, API_TAKES_CAPS, 0)	\
	/* reads a register: acts when the result is unused */			\
	X(API_HW_READ, "hardware_read", EF_NONE, EF_NONE, API_TAKES_NOTHING, 0)	\
	/* takes a reference (kref_get) */					\
	X(API_REF_GET, "ref_get", EF_REF_GET, EF_NONE, API_TAKES_NOTHING, 0)	\
	/* drops one (kref_put): a state change when the command's path	\
	 * takes none (classify_evidence.c) */					\
	X(API_REF_PUT, "ref_put", EF_NONE, EF_NONE, API_TAKES_NOTHING, 0)

/* What an entry may write after the effect's name. */
enum api_takes {
	API_TAKES_NOTHING,
	API_TAKES_ARG,		/* ":N", optional */
	API_NEEDS_ARG,		/* ":N", required */
	API_TAKES_CAPS,		/* ":N" (the CAP_ argument) or "=CAP_A,CAP_B" */
};

#define API_EFFECT_ENUM(effect, name, kind, arg_kind, takes, contract) effect,
enum api_effect {
	API_EFFECTS(API_EFFECT_ENUM)
	API_EFFECT_COUNT
};
#undef API_EFFECT_ENUM

struct api_effect_info {
	const char *name;
	enum effect_kind kind, arg_kind;
	enum api_takes takes;
	int contract;
};

extern const struct api_effect_info api_effect_info[API_EFFECT_COUNT];

/* The user namespace a capability check is made in (api_entry.user_ns,
 * besides an argument's index): the initial one (capable()), or one the
 * function takes from an object it is given (netlink_net_capable(): the
 * socket's network namespace's owner). */
enum {
	API_NS_INITIAL = -1,
	API_NS_OBJECT = -2,
};

struct api_entry {
	char *name;		/* a trailing '*' matches a prefix */
	enum api_effect effect;
	int arg;
	/* API_CAPABILITY: the argument naming the user namespace the check
	 * is made in (ns_capable(ns, cap): 0), or API_NS_INITIAL or
	 * API_NS_OBJECT */
	int user_ns;
	strvec caps;		/* fixed capabilities (perfmon_capable) */
};

typedef struct {
	struct api_entry *items;	/* sorted by name */
	size_t len, cap;
	/* the entries whose name ends in '*' (prefixes), in the same order:
	 * a name no entry has exactly is matched against these alone */
	VEC(size_t) prefixes;
} api_table;

struct returns_argument {
	char *name;
	int arg;
};

/* The values an API returns, where its callers' tests of them matter
 * (classify_values.c): the listed ones, and any value >= 0 when
 * nonnegative (copy_to_user's count of bytes left). */
struct api_returns {
	char *name;
	int nonnegative;
	VEC(int64_t) values;
};

struct knowledge {
	VEC(struct handler_kind) kinds;
	VEC(struct forwarder) forwarders;
	VEC(struct table_kind) tables;
	strvec macro_calls;	/* API macros recorded as calls: put_user */
	strvec macro_assigns;	/* of those, the ones assigning their first argument */
	strvec mode_flags;	/* FMODE_WRITE, FMODE_READ: open-mode tests */
	api_table apis;		/* sorted by name */
	/* what a call through an ops member does by the interface's
	 * contract: "rtc_class_ops.read_time" -> neutral */
	api_table contracts;
	strvec allocators;	/* return a fresh temporary (kmalloc, memdup_user) */
	strvec value_preserving;	/* macros valued as their first argument */
	/* return a pointer into the object an argument points to
	 * (strchr(buf, c) into buf): "strchr" -> 0 */
	VEC(struct returns_argument) returns_argument;
	VEC(struct api_returns) return_values;
	strvec neutral_paths;	/* files whose functions are infrastructure */
	strvec release_tests;	/* true when the last reference is dropped */
	struct request_codes requests;	/* transports and their query codes */
	/* SHA-256, in hex, of the knowledge per-file facts depend on (not
	 * what APIs do, which only classifying reads): the facts cache keys
	 * on it (knowledge.c, digest_facts_knowledge) */
	char digest[65];
};

/* Loads the data files from dir; on error prints a message and returns -1. */
int knowledge_load(struct knowledge *kn, const char *dir);
void knowledge_free(struct knowledge *kn);
/* The handler kind named kind ("tty_operations.ioctl"), or NULL. */
const struct handler_kind *knowledge_kind_named(const struct knowledge *kn, const char *kind);
const struct handler_kind *knowledge_kind_for(const struct knowledge *kn,
					      const char *struct_name,
					      const char *field);
/* What a kernel API does, or NULL when the knowledge file does not say. */
const struct api_entry *knowledge_api(const struct knowledge *kn, const char *name);
/* What a call through struct_name's member field does by contract, or NULL. */
const struct api_entry *knowledge_contract(const struct knowledge *kn, const char *struct_name,
					   const char *field);
/* The argument whose object a function's result points into, or -1. */
int knowledge_returns_argument(const struct knowledge *kn, const char *name);
/* The values API name returns (kernel_api.json return_values), or NULL. */
const struct api_returns *knowledge_return_values(const struct knowledge *kn, const char *name);
int knowledge_neutral_file(const struct knowledge *kn, const char *file);
/* The table kind of struct struct_name, or NULL. */
const struct table_kind *knowledge_table(const struct knowledge *kn, const char *struct_name);
const struct forwarder *knowledge_forwarder(const struct knowledge *kn,
					    const char *function);

#endif
