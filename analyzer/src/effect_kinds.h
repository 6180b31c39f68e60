/* The kinds of effect the classifier records on a command's path, each
 * declared once: its name as evidence in the report, what it does to the
 * command's class (classify_evidence.c, decide()), whether it leaves the
 * verdict in doubt, and where its evidence stands among its class's
 * (lower first). A new kind is one line here; the knowledge file's API
 * effects (knowledge.h, API_EFFECTS) say which of these each records.
 *
 * X(kind, evidence name, role, doubt, rank) */
#ifndef IOCTL_SCAN_EFFECT_KINDS_H
#define IOCTL_SCAN_EFFECT_KINDS_H

/* What an effect does to the class (doc/classes.md). */
enum effect_role {
	ROLE_GUARD,	/* a capability check every run passes: admin */
	ROLE_COND,	/* a capability check some paths bypass: listed, no class */
	ROLE_MODIFY,	/* a state change: modify */
	ROLE_PUT,	/* a reference dropped: a state change when the path takes
			 * none (the one a create or open took) */
	ROLE_UNKNOWN,	/* what the walk could not follow: unknown, unless
			 * something on the path modifies */
	ROLE_READ,	/* what a read shows as its evidence */
	ROLE_NONE,	/* recorded for another effect's sake */
};

#define EFFECT_KINDS(X)								\
	X(EF_CAP_GUARD, "capability_check", ROLE_GUARD, 0, 0)			\
	X(EF_CAP_COND, "conditional_capability", ROLE_COND, 0, 0)		\
	X(EF_STORE, "store", ROLE_MODIFY, 0, 6)					\
	X(EF_API_MODIFY, "modifying_call", ROLE_MODIFY, 0, 4)			\
	/* a list entry linked or unlinked */					\
	X(EF_LINK, "modifying_call", ROLE_MODIFY, 0, 5)				\
	X(EF_HARDWARE, "hardware_write", ROLE_MODIFY, 0, 1)			\
	X(EF_LIFETIME, "object_lifetime", ROLE_MODIFY, 0, 2)			\
	/* the driver tests FMODE_WRITE */					\
	X(EF_MODE_WRITE, "fmode_write_check", ROLE_MODIFY, 0, 0)		\
	X(EF_USER_OUT, "user_copy_out", ROLE_READ, 0, 2)			\
	X(EF_USER_IN, "user_copy_in", ROLE_NONE, 0, 0)				\
	/* a call that could not be analysed */					\
	X(EF_UNKNOWN, "unanalysed_call", ROLE_UNKNOWN, 1, 1)			\
	/* control flow the walk cannot follow */				\
	X(EF_UNFOLLOWED, "unfollowed_flow", ROLE_UNKNOWN, 1, 0)			\
	/* a call through a member, all its targets analysed: right for	\
	 * this tree, not for a module from outside it */			\
	X(EF_RESOLVED, "indirect_call_resolved", ROLE_READ, 1, 0)		\
	/* a request the device only answers (request_call.h) */		\
	X(EF_QUERY, "query_request", ROLE_READ, 0, 1)				\
	/* a reference taken: a drop on the same path gives it back */		\
	X(EF_REF_GET, "reference_get", ROLE_NONE, 0, 0)				\
	X(EF_REF_PUT, "object_lifetime", ROLE_PUT, 0, 3)

#define EFFECT_KIND_ENUM(kind, name, role, doubt, rank) kind,
enum effect_kind {
	EF_NONE = -1,	/* no kind: an API effect that records none */
	EFFECT_KINDS(EFFECT_KIND_ENUM)
	EF_KIND_COUNT
};
#undef EFFECT_KIND_ENUM

/* What the X-macro says of each kind, indexed by enum effect_kind. */
struct effect_kind_info {
	const char *evidence;
	enum effect_role role;
	int doubt;	/* its presence makes a verdict of low confidence */
	int rank;
};

extern const struct effect_kind_info effect_kind_info[EF_KIND_COUNT];

#endif
