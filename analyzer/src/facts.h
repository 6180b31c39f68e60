/* Per-file facts: what one parse of one file yields. They depend on that
 * file alone, so files are parsed in parallel; everything cross-file works
 * on these small structures, never on ASTs.
 *
 * A function body is kept as a tree of statements reduced to what the later
 * stages need: dispatches on the command (switch, comparisons), calls with
 * the way each argument derives from the function's parameters, stores, and
 * returns. */
#ifndef IOCTL_SCAN_FACTS_H
#define IOCTL_SCAN_FACTS_H

#include "util.h"

/* An expression viewed as a function of one parameter:
 * expr == ((param >> shift) & mask), or param < 0 when it is not one. */
struct param_view {
	int param;
	int shift;
	uint64_t mask;
};

enum stmt_kind {
	ST_BLOCK,	/* kids run in order */
	ST_IF,		/* cond_calls, then then_s or else_s */
	ST_SWITCH,	/* on `on`, segments */
	ST_LOOP,	/* kids may run any number of times */
	ST_CALL,
	ST_STORE,
	ST_RETURN,
	ST_BREAK,	/* break or continue */
	ST_GOTO,
	ST_MODE_TEST,	/* the condition tests an open-mode flag: target */
	/* a table of command descriptors is read (handler_kinds.json
	 * "tables"): target names a static table of the file, or
	 * callee_struct.callee_field the member holding one
	 * (drm_driver.ioctls) */
	ST_TABLE,
};

/* How an if's condition relates to the command. */
enum cond_kind {
	COND_OTHER,
	COND_PARAM_CMP,	/* view == value (cmp_eq) or view != value */
	COND_PARAM_IMPLIED,	/* holds only if view == one of the values */
	COND_CALL,	/* the condition is exactly a call: if (f(...)) */
	COND_NOT_CALL,	/* exactly a negated call: if (!f(...)) */
	COND_PARAM_TRUTH,	/* the parameter itself: view != 0, or (cmp_eq,
				 * `if (!set)`) view == 0 */
	COND_PARAM_RANGE,	/* lo <= view <= hi (one label lo..hi), or
				 * (!cmp_eq) outside it: `cmd >= SIOCDEVPRIVATE
				 * && cmd <= SIOCDEVPRIVATE + 15` */
	COND_PARAM_NONE_OF,	/* the premises, `view != value` tests of one
				 * parameter through different views, all
				 * hold: `_IOC_TYPE(cmd) != MEGAIOC_MAGIC &&
				 * cmd != USCSICMD` */
};

struct call_arg {
	struct param_view view;	/* passes a parameter (transformed) */
	int points_to_local;	/* into this call's frame or a temporary */
	int points_to_frame;	/* into this call's own locals (not a fresh
				 * allocation): a stack list entry */
	int ptr_param;		/* into what parameter N points to, or -1 */
	int is_const;
	int64_t value;
	char *spelling;		/* first identifier token, e.g. "CAP_SYS_ADMIN" */
	char *function;		/* names a function: a callback handed on */
	int is_null;		/* a null pointer constant */
	/* reads a function-pointer member (dev->ops->set_attr: a callback
	 * whose targets the member's installers name): its struct and field */
	char *member_struct, *member_field;
	/* reads a member of any type (ioctl->flags), directly or through a
	 * local assigned only from it (drm_ioctl's `func = ioctl->func`) */
	char *read_struct, *read_field;
	/* the argument is a comparison `view == lo` (cmp_eq) or `view != lo`
	 * (cmp_view.param >= 0): mxser's `cmd == MOXA_SET_OP_MODE` */
	struct param_view cmp_view;
	int cmp_eq;
	uint64_t cmp_value;
};

struct case_label {
	uint64_t lo, hi;	/* hi == lo unless a GNU case range */
	char *name;		/* macro name as written, or the literal */
	unsigned line;
};

struct stmt;

struct switch_segment {
	VEC(struct case_label) labels;
	int is_default;
	struct stmt *body;	/* ST_BLOCK: statements up to the next label */
	int falls_through;	/* body does not end in break/return/goto */
};

struct stmt {
	enum stmt_kind kind;
	unsigned line;
	int has_label;		/* a label is in it: a goto may land there */
	char *label;		/* an empty block marking where label `label` is */
	VEC(struct stmt *) kids;	/* BLOCK, LOOP; IF: the condition's calls */

	/* ST_IF */
	enum cond_kind cond;
	struct param_view cmp_view;
	int cmp_eq;
	struct stmt *then_s, *else_s;

	/* ST_SWITCH: on, and the segments from one case label (or run of
	 * labels) to the next. ST_IF of kinds COND_PARAM_CMP, _IMPLIED and
	 * _RANGE: the values cmp_view is compared with are the labels of one
	 * segment, segs.items[0].labels (its body unused), so that a
	 * comparison and a case label are read alike (dispatch.c,
	 * if_values()) */
	struct param_view on;
	VEC(struct switch_segment) segs;

	/* ST_CALL */
	char *callee;		/* function or macro name; NULL if unresolved */
	char *callee_text;	/* spelling of an indirect callee (ops->ioctl) */
	char *callee_struct;	/* an indirect callee that is a struct member: */
	char *callee_field;	/* "rtc_class_ops", "read_time" */
	/* the member is read from a const object of file scope
	 * (packet_ioctl's `inet_dgram_ops.ioctl(sock, cmd, arg)`) */
	char *callee_object;
	int callee_param;	/* an indirect callee that is parameter N, or -1 */
	/* an indirect callee read from an element of a static array of file
	 * scope indexed by a parameter, directly or through a local assigned
	 * only from it (drm_compat_ioctl's `fn = drm_compat_ioctls[nr].fn;
	 * ... (*fn)(filp, cmd, arg)`): the array (file_facts.fn_arrays), the
	 * member read from the element (NULL for an array of functions), and
	 * the index as a view of the parameter plus an offset
	 * (`[nr - DRM_COMMAND_BASE]`: -0x40) */
	/* ST_SWITCH: `on` is no view of a parameter but an element of an
	 * array of integers indexed so (callee_array_field NULL): the
	 * command translated to the values the cases test. Or a local the
	 * function assigns a member of the record of an array it searched
	 * for the one whose member callee_array_field equals callee_index
	 * (do_atm_ioctl's `if (cmd32 == atm_ioctl_map[i].cmd32) cmd =
	 * atm_ioctl_map[i].cmd;`), besides constants no case takes: the
	 * array's fn_arrays entry under that member holds each record's
	 * value of it (value) and of the member read (flags) */
	char *callee_array;
	char *callee_array_field;
	struct param_view callee_index;
	int64_t callee_index_offset;
	int is_macro;
	int is_asm;		/* inline assembly: callee_text is how it is written */
	int value_unused;	/* an expression statement: its result is dropped */
	int negated_in_cond;	/* the if's condition holds whenever this call
				 * returns 0: `!f()`, `a || !f()` */
	/* the tests on parameters that, with this call returning 0, make the
	 * if's condition hold (`cmd != A && !capable(X)`: cmd != A): ST_IF
	 * statements of kind COND_PARAM_CMP or COND_PARAM_TRUTH. For an ST_IF
	 * of kind COND_PARAM_IMPLIED: the comparisons other operands of its
	 * `&&` imply (COND_PARAM_IMPLIED), each needed for it to hold; of
	 * kind COND_PARAM_NONE_OF: its tests (COND_PARAM_CMP, `!=`) */
	VEC(struct stmt *) premises;
	VEC(struct call_arg) args;

	/* ST_STORE; ST_GOTO: the label (NULL for a computed goto) */
	char *target;		/* spelling of the stored-to lvalue */
	int nonlocal;		/* not a plain local variable */
	int store_param;	/* the lvalue is reached through parameter N, or -1 */
	int store_is_const;
	int64_t store_value;
	int assigns_param;	/* the store re-assigns parameter N itself (or a
				 * local copy of it): `cmd = EXT4_IOC_SETVERSION` */
	char compound_op;	/* `x op= k` with a constant k: '&', '|', '+',
				 * '-' (store_is_const stays for plain `=`) */
	int64_t compound_value;

	/* ST_IF: the condition is this local flag (flag_neg: its negation);
	 * ST_STORE: the store is to this local variable (local_flags.h) */
	char *flag;
	int flag_neg;

	/* ST_RETURN */
	int ret_is_const;
	int64_t ret_value;
	int ret_has_call;

	/* What a value is, where the classifier follows it back
	 * (classify_values.c). ST_STORE and ST_RETURN: the value stored or
	 * returned is exactly what a direct call to value_callee returns
	 * (`ret = f(...)`, `return f(...)`), or (value_either) one of the
	 * two constants either[] (`return err ? -EFAULT : 0`). ST_RETURN:
	 * the local variable returned (`return ret;`), by its key. ST_IF:
	 * the condition compares local test_local with test_value: it
	 * holds when `local test_op value`, test_op one of '=' (==), '!'
	 * (!=), '<', '>', 'l' (<=), 'g' (>=); `if (ret)` is ret != 0; with
	 * test_join '&' the test is an operand of the condition's `&&` (the
	 * condition needs it), with '|' of its `||` (it suffices). Keys
	 * name locals whose address is never taken (local_flags.h). */
	char *value_callee;
	int value_either;
	int64_t either[2];
	char *value_local;
	char *test_local;
	char test_op, test_join;
	int64_t test_value;
};

/* A local variable that ifs test, whose value only plain stores change
 * (local_flags.h), with its initial value. */
struct local_flag {
	char *key;		/* "do_notify@3094" */
	int64_t init;
};

struct function_facts {
	char *name;
	char *file;		/* relative to the kernel tree: where it is written */
	/* the file parsed to read it, in which its static names resolve:
	 * file itself, or the .c file that includes it (sound/core/pcm_native.c
	 * for pcm_compat.c's functions) */
	char *unit;
	unsigned line;
	int is_static;
	/* defined in a header (a static inline): every file that calls it
	 * yields it, and the scan keeps the first copy (header_functions.h) */
	int in_header;
	/* bit N: the body reads parameter N somewhere (any mention, in any
	 * expression); parameters past the 32nd are always set. A handler
	 * whose command parameter is clear serves every command alike
	 * (dispatch.c, every_command()) */
	uint32_t params_read;
	strvec params;
	struct stmt *body;
	VEC(struct local_flag) flags;
};

/* One entry of a static table of command descriptors. */
struct table_entry {
	char *command;		/* the command's macro as written */
	uint64_t value;
	char *function;		/* NULL when the member names no function */
	int has_flags;
	int64_t flags;
	unsigned line;
};

/* A static array of a table kind's struct (drm_ioctls[]). */
struct table_init {
	char *var;
	char *struct_name;
	char *file;		/* where it is written */
	char *unit;		/* the file parsed: its name is static there */
	int is_static;
	VEC(struct table_entry) entries;
};

/* file_facts.fn_arrays reuse struct table_init for a static array of
 * functions, or of records with a function member, that a call indexes
 * (stmt.callee_array): var the array, struct_name the member read (NULL
 * for an array of functions), and one entry per element that names a
 * function or a value that is not one (function NULL), its value the
 * element's index; command is NULL. An index with no entry holds a null
 * pointer. For an array of integers that a switch indexes (a command
 * translated, dma_heap_ioctl_cmds[]): one entry per element, has_flags
 * set when the element is a constant and flags its value. For an array
 * of records a switch's local was found in by search (stmt.callee_array
 * on ST_SWITCH with callee_array_field): struct_name the member
 * searched, one entry per record whose member is a constant, its value
 * that member's, has_flags and flags the member the local is assigned. */

/* One initialiser of an ioctl member of a known ops structure. */
struct ops_init {
	char *struct_name;	/* "file_operations" */
	char *field;		/* "unlocked_ioctl" */
	char *handler;		/* function name, NULL if not a function */
	char *var;		/* variable or enclosing object, "" if none */
	char *file;
	unsigned line;
};

/* `.field = function` in an initialiser of struct struct_name, or
 * `x->field = function`: one of the functions a call through that member
 * may reach. function is NULL when the value names no function (a
 * variable, a conditional): the member's targets are then not all known. */
struct member_init {
	char *struct_name;
	char *field;
	char *function;
	char *file;
	/* the const object of file scope whose initialiser this is
	 * (`const struct proto_ops inet_dgram_ops = { .ioctl = ... }`) */
	char *object;
	/* a hook variable set from parameter setter_param of function
	 * setter (brioctl_set's `br_ioctl_hook = hook;`): what the callers
	 * of setter pass there is installed (function NULL) */
	char *setter;
	int setter_param;
};

struct diag {
	char *file;
	char *severity;		/* "error", "warning" */
	char *message;
};

typedef VEC(struct diag) diag_vec;

struct file_facts {
	char *file;		/* relative to the kernel tree */
	int parsed;		/* libclang produced an AST */
	int errors;		/* error diagnostics in the parse */
	diag_vec diags;
	VEC(struct function_facts *) functions;
	VEC(struct ops_init) ops;
	VEC(struct member_init) member_inits;
	VEC(struct table_init) tables;
	VEC(struct table_init) fn_arrays;
	double parse_seconds;
};

struct stmt *stmt_new(enum stmt_kind kind, unsigned line);
void stmt_free(struct stmt *s);
/* Does s, or a statement anywhere in it, satisfy pred? pred returns 1
 * (yes), 0 (look inside) or -1 (leave this statement and what it holds
 * out). */
int stmt_any(const struct stmt *s, int (*pred)(const struct stmt *s, void *ctx), void *ctx);
/* Is target s itself or a statement anywhere in it? */
int stmt_contains(const struct stmt *s, const struct stmt *target);
void member_init_clear(struct member_init *m);
void function_facts_free(struct function_facts *fn);
void file_facts_free(struct file_facts *ff);
void add_diag(diag_vec *diags, const char *file, const char *severity,
	      const char *message);

#endif
