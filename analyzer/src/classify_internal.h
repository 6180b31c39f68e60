/* The classifier's internals, shared by its files (classify.c says which
 * file holds which concern): its limits, the effects it records, function
 * summaries, the classifier's state, and the functions one file calls in
 * another. Not for use outside classify*.c. */
#ifndef IOCTL_SCAN_CLASSIFY_INTERNAL_H
#define IOCTL_SCAN_CLASSIFY_INTERNAL_H

#include "classify.h"

#include "analysis_limits.h"
#include "dispatch.h"
#include "effect_kinds.h"

#define VALUES_BUCKETS 1024

/* A callback's arguments: where the pointer argument j of a call through
 * a parameter points, as seen in the function making that call
 * (MAX_CB_ARGS of them). */
enum { CB_UNKNOWN = -1, CB_LOCAL = -2 };

struct effect {
	enum effect_kind kind;
	char *what;
	const char *file;
	unsigned line;
	strvec caps;
	/* EF_STORE or EF_LINK through the function's parameter N; EF_UNKNOWN: a call
	 * through parameter N (a callback), cbmap[j] telling into what its
	 * argument j points: parameter M, CB_LOCAL or CB_UNKNOWN. Else -1. */
	int param;
	signed char cbmap[MAX_CB_ARGS];
};

typedef VEC(struct effect) effect_list;

/* Values an int may hold (classify_values.c): v[0..n), values >= 0
 * when nonnegative, and any other when unknown. */
struct value_set {
	int unknown;
	int nonnegative;
	int n;
	int64_t v[MAX_VALUES];
};

/* What a function may return, for every caller (function_values) */
struct values_memo {
	const struct function_facts *fn;
	struct value_set values;
	int busy;
	struct values_memo *next;
};

struct summary {
	const struct function_facts *fn;
	/* a summary for a call passing constant cvalue as parameter cparam
	 * (const_param_summary); cparam -1 for the one that holds for every call */
	int cparam;
	int64_t cvalue;
	effect_list effects;
	int done, busy;
	/* made at this depth, and cut short by CLASSIFY_MAX_DEPTH somewhere
	 * below: not what a call from higher up would see */
	int depth, cut;
	strvec wrapper_caps;	/* the function returns the result of a capability check */
	struct summary *next;
};

#define SUMMARY_BUCKETS 8192

/* What the core checks before it hands a command to a handler kind's
 * member (dev_ioctl's `case SIOCGMIIREG: if (!ns_capable(net->user_ns,
 * CAP_NET_ADMIN)) return -EPERM; ... dev_ifsioc(net, ifr, data, cmd);`,
 * which calls ops->ndo_eth_ioctl(dev, ifr, cmd)): met while the handlers
 * where the system call enters are walked, each time a command's path
 * calls such a member and hands it the command. A driver's handler of
 * that kind inherits the checks made on every such path (doc/classes.md:
 * the check may sit before the dispatch). */
struct kind_entry {
	const struct handler_kind *kind;
	uint64_t value, mask;	/* the command handed on (a family: some bits) */
	strvec via;		/* the handlers whose commands' paths they are */
	effect_list guards;	/* the checks made on every path so far: none
				 * once one path has none */
	/* recorded while inner kinds' commands were walked: no path from
	 * where the system call enters hands this value to the kind
	 * directly (atm_dev_ioctl's capable(CAP_NET_ADMIN) for
	 * ATM_SETCIRANGE, reached from the ATM sockets' proto_ops.ioctl,
	 * before dev->ops->ioctl) */
	int inner;
};
typedef VEC(struct kind_entry) kind_entries;

/* Strings to pointers by content: the classifier's own memory of what it
 * looked up. The names are not copied and outlive the map. */
struct name_map {
	struct name_slot {
		const char *name;
		unsigned hash;
		const void *value;
	} *slots;
	size_t cap, len;	/* cap: a power of two, or 0 */
};

struct classifier {
	const struct function_index *fi;
	const struct knowledge *kn;
	struct summary *bucket[SUMMARY_BUCKETS];
	int depth;
	unsigned cuts;		/* calls left out for the depth, so far */
	int via_header;		/* analysing under a function defined in a header */
	/* summarising a function (bypass_tracked), and a success return (a
	 * constant >= 0) already met on its walk (success_return): a
	 * capability check past it guards nothing for the function's
	 * callers, who go on after either return (drm_master_check_perm's
	 * `if (was_master && same pid) return 0;` before capable()) */
	int bypass_tracked, success_return;
	/* summaries being made (summarise_for): a summary is kept for every
	 * command, so nothing of the command's own path (its sites, the
	 * link being walked) may shape it */
	int summarising;
	/* the labels gotos on the path jump to (label NULL: a computed goto,
	 * any label of fn); past MAX_GOTOS every label is reached */
	struct { const struct function_facts *fn; const char *label; } gotos[MAX_GOTOS];
	int ngotos;
	strvec *wanted;		/* functions to parse, when collecting */
	struct name_map wanted_set;	/* the same names, to look up */
	struct name_map apis;	/* callee -> its knowledge_api entry or NULL */
	int want_callees;	/* the callees on command paths too, or only
				 * the targets of closed members */
	wanted_members *wanted_members;	/* members whose installers to parse */
	/* the command whose path site_effects is walking: in the functions
	 * of its dispatch chain (analysed directly, depth 0), tests on the
	 * command decide which branches are on its path */
	const struct command *cmd;
	const struct command_site *site;
	/* callees that the command was handed to from those functions,
	 * analysed for it too (analyse_for_command) */
	struct chain_link extra[MAX_EXTRA_LINKS];
	int nextra;
	/* the local flags of the site's own function (local_flags.h):
	 * flag_maybe[i] when fn->flags[i] may be nonzero on the path so far */
	const struct function_facts *flags_fn;
	unsigned char *flag_maybe;
	/* the function whose summary is being made for a constant argument:
	 * its tests on that parameter decide (const_param_summary) */
	const struct function_facts *const_fn;
	int const_param;
	int64_t const_value;
	/* the kind of the handler whose commands are walked; the return by
	 * which the handler's own code declines the command being
	 * classified, and which later links of its dispatch chain return
	 * that value on its path (bit d for chain[d], d >= 1) */
	const struct handler_kind *hkind;
	const char *hname;
	const struct handler *handler;
	/* the command of handler the one being walked was translated into
	 * (classify_values.c, translated_call), or NULL */
	const struct command *translated;
	const struct stmt *declined;
	unsigned declined_links;
	/* the command re-assigned on its path in rewrite_fn (a compat
	 * handler's `cmd = EXT4_IOC_SETVERSION; break;` before it hands the
	 * command on): calls there that hand it on are analysed for the new
	 * value as well */
	const struct function_facts *rewrite_fn;
	const struct stmt *rewrite;
	int rewrite_known;	/* and its value (the bits of mask known), */
	uint64_t rewrite_value, rewrite_mask;	/* when constants made it */
	int renamed;		/* analysing a callee for such a new value */
	/* the call to the next link of the site's chain, left out while
	 * the statement holding it is walked (the callee is that link);
	 * whether the command's path reached it, and whether some link's
	 * call was off the path (the site is not the command's) */
	const struct stmt *link_call;
	int link_reached, site_off_path;
	/* the capability checks that guard the rest of the command's path,
	 * made at the top of the functions of its dispatch chain; and, when
	 * recording them, the paths into handler kinds seen so far */
	effect_list guards;
	kind_entries *entries;
	enum { RECORD_NONE, RECORD_ENTRY, RECORD_INNER } record_entries;
	/* the values each link of the site's chain hands back on the
	 * command's path (classify_values.c): the returns met in it, and
	 * whether it returns what the next link returns (`return
	 * next(...)`); when a caller is walked after the call, the local
	 * that holds what the call returned (bound_key, NULL for none) and
	 * the store that put it there */
	struct value_set link_returns[MAX_CHAIN];
	unsigned char returns_next[MAX_CHAIN];
	const struct function_facts *bound_fn;
	const char *bound_key;
	const struct stmt *bound_store;
	struct value_set bound;
	struct values_memo *values_memo[VALUES_BUCKETS];
};

/* How control can leave a statement: to the next one (FLOW_ON), out of
 * the enclosing switch or loop (FLOW_OUT: break, continue); with neither,
 * it returns or jumps to a label, and what follows it up to the next label
 * is not on the path. */
enum { FLOW_ON = 1, FLOW_OUT = 2 };

enum walk_phase { WALK_ALL, WALK_ENTRY_KINDS, WALK_INNER_KINDS };

/* classify.c: commands and their sites */
int name_map_find(const struct name_map *m, const char *name, const void **value);
void name_map_put(struct name_map *m, const char *name, const void *value);
void name_map_free(struct name_map *m);
const struct api_entry *api_of(struct classifier *c, const char *name);
void classifier_reset(struct classifier *c);
void walk_commands(struct classifier *c, struct scan_result *r, int decide_classes,
		   enum walk_phase phase);

/* classify_walk.c: walking statements */
int always_leaves(const struct stmt *b);
int bypassed(const struct classifier *c);
int resumes_at(const struct classifier *c, const struct function_facts *fn,
	       const struct stmt *k);
int analyse_seq_from(struct classifier *c, const struct function_facts *fn,
		     const struct stmt *const *kids, size_t n, int top, int reach,
		     effect_list *out);
int goto_lands_in(const struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s);
int analyse_stmt(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s, int top, effect_list *out);
int analyse_block(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *b, int top, effect_list *out);

/* classify_path.c: path and flag logic */
int on_dispatch_chain(const struct classifier *c, const struct function_facts *fn);
int command_param(const struct classifier *c, const struct function_facts *fn);
int in_command_context(const struct classifier *c, const struct function_facts *fn);
void flag_store(struct classifier *c, const struct function_facts *fn,
		const struct stmt *s);
void flags_enter(struct classifier *c, const struct command_site *site);
void flags_loop(struct classifier *c, const struct function_facts *fn,
		const struct stmt *loop);
void flags_label(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s);
void flags_leave(struct classifier *c);
void flags_start(struct classifier *c, const struct function_facts *fn);
struct command const_command(const struct classifier *c);
const struct chain_link *bound_link(const struct classifier *c,
				    const struct function_facts *fn, int param);
enum label_match if_holds(const struct classifier *c, const struct function_facts *fn,
			  const struct stmt *s);
enum label_match premises_hold(const struct classifier *c,
			       const struct function_facts *fn, const struct stmt *call);
void segments_on_path(const struct command *cmd, const struct stmt *sw, unsigned char *on);
unsigned char *command_segments(const struct classifier *c, const struct function_facts *fn,
				const struct stmt *sw);
unsigned char *searched_segments(const struct classifier *c, const struct function_facts *fn,
				 const struct stmt *sw);

/* classify_calls.c: calls */
/* An effect's caps name the capabilities a check asks. A check that
 * may be made in a user namespace other than the initial one
 * (ns_capable(sb->s_user_ns, X)) names them with this suffix, which
 * stays on through summaries and copies until the command's
 * capabilities are listed (capabilities_in_user_ns). */
#define CAP_IN_USER_NS "@user_ns"
char *cap_entry(const char *name, int in_user_ns);
int cap_in_user_ns(const char *entry);
/* the capability's name, without the suffix (malloc'ed) */
char *cap_name(const char *entry);
void call_capabilities(struct classifier *c, const struct function_facts *from,
		       const struct stmt *call, strvec *caps);
int member_targets(struct classifier *c, const char *sname, const char *field,
		   size_t max, int seek, const struct function_facts **t, size_t *n);
char *resolved_what(const char *what, const struct function_facts *const *t, size_t n);
int command_argument(const struct classifier *c, const struct function_facts *fn,
		     const struct stmt *s);
int reassigned_in(const struct classifier *c, const struct function_facts *fn);
struct command rewritten_command(const struct classifier *c);
void note_rewrite(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s);
void analyse_indexed_routes(struct classifier *c, const struct function_facts *fn,
			    effect_list *out);
void analyse_member_call(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *s, int top, effect_list *out);
void analyse_call(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s, int top, effect_list *out);

/* classify_summary.c: summaries and lifting */
int pointer_param(const struct call_arg *a);
int lands_in_frame(const struct call_arg *a, enum effect_kind k);
int store_through_call(const struct stmt *call, enum effect_kind k, int param,
		       int *caller_param);
int lands_through_param(const struct effect *e);
signed char arg_target(const struct stmt *s, int j);
void lift_callee(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s, const struct function_facts *callee,
		 const effect_list *sub, int top, effect_list *out);
struct summary *summarise(struct classifier *c, const struct function_facts *fn);
struct summary *const_param_summary(struct classifier *c, const struct function_facts *fn,
				    const struct stmt *call,
				    const struct function_facts *callee);

/* classify_evidence.c: the effect set and the decision */
void effect_add_mapped(effect_list *l, enum effect_kind k, char *what, const char *file,
		       unsigned line, const strvec *caps, int param, const signed char *cbmap);
void effect_add_param(effect_list *l, enum effect_kind k, char *what, const char *file,
		      unsigned line, const strvec *caps, int param);
void effect_add(effect_list *l, enum effect_kind k, char *what, const char *file,
		unsigned line, const strvec *caps);
void effects_free(effect_list *l);
void effects_filter(effect_list *l, int (*keep)(const struct effect *, const void *),
		    const void *ctx);
void decide(struct command *cmd, const effect_list *l);

/* classify_values.c: values handed back */
void values_add(struct value_set *s, int64_t v);
void values_join(struct value_set *s, const struct value_set *o);
enum label_match values_test(const struct value_set *s, char op, int64_t k);
enum label_match values_if(const struct value_set *v, const struct stmt *s);
void note_return(struct classifier *c, const struct function_facts *fn, const struct stmt *ret);
void note_local_store(struct classifier *c, const struct function_facts *fn,
		      const struct stmt *s);
void values_loop(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *loop);
enum label_match local_test_holds(const struct classifier *c, const struct function_facts *fn,
				  const struct stmt *s);
void values_forget(struct classifier *c);
int translated_call(struct classifier *c, const struct stmt *s);

/* classify_entries.c: kind-entry guards */
void note_kind_entry(struct classifier *c, const struct function_facts *fn,
		     const struct stmt *s);
int entry_kind(const struct handler_kind *k);
void inherit_entry_guards(const struct classifier *c, const struct command *cmd,
			  effect_list *l);

/* classify_wanted.c: what to parse next, asked for by the deciding code
 * (all of it does nothing unless classify_wanted is collecting) */
void want_callee(struct classifier *c, const struct function_facts *fn, const struct stmt *s);
int seek_member(const struct classifier *c, const struct stmt *s, int hands_on_command);
int seek_callback_member(const struct classifier *c);
void want_member_targets(struct classifier *c, const char *sname, const char *field, size_t max,
			 const strvec *missing);

#endif
