/* The limits of the cross-file analysis (dispatch, member closing,
 * classification), in one place, each with what it bounds and why it is
 * enough. None of them is in the facts closure (facts-format.sh): changing
 * one never invalidates the facts cache. What lies past a depth or round
 * limit is reported as not analysed (confidence low, or unknown), never
 * as read.
 *
 * Two kinds of chains are bounded, and they are not the same: the calls a
 * command is followed through within code already parsed (the deepest
 * direct-call dispatch chain known in 6.1, tty_ioctl -> tty_mode_ioctl ->
 * set_termios, is three calls: DISPATCH_MAX_DEPTH), and the rounds of
 * parsing more files, one per ops member or file a chain crosses (the
 * longest known, sock_ioctl's ATM chain, needs six: FOLLOW_ROUNDS).
 *
 * The fixed sizes the per-file extraction keeps (16 parameters,
 * MAX_LOCALS locals holding a view of one, 8 negated calls in a
 * condition) are at the top of extract_facts.c, in the facts closure,
 * where changing one changes the facts format as it should; past one,
 * extraction leaves a diagnostic naming the function (limit_cut()). */
#ifndef IOCTL_SCAN_ANALYSIS_LIMITS_H
#define IOCTL_SCAN_ANALYSIS_LIMITS_H

/* --- finding the commands (dispatch.c, model.h) --- */

/* Calls the command is followed through, within code already parsed:
 * three are known to be needed, eight leave room without risking
 * blowup. */
#define DISPATCH_MAX_DEPTH 8
/* Functions of one dispatch chain a command site records: the handler
 * and the DISPATCH_MAX_DEPTH calls below it. */
#define MAX_CHAIN (DISPATCH_MAX_DEPTH + 1)
/* Nesting of blocks recorded around a dispatch; deeper ones are left out
 * (what they hold before and after the dispatch is not walked). */
#define MAX_SITE_LEVELS 16

/* --- what to parse (scan.c) --- */

/* Rounds of "parse the files the commands lead to". Each round follows
 * calls one file further, and the rounds stop when one finds nothing new
 * to parse. The longest dispatcher chain known needs six: sock_ioctl ->
 * an ATM socket's vcc_ioctl -> atm_dev_ioctl -> the ATM device driver's
 * ops->ioctl -> its PHY's phy->ioctl, each member's installers a round. */
#define FOLLOW_ROUNDS 8
/* Of those, the rounds that also parse files for the functions a
 * command's code calls (classification), three calls deep:
 * i915_getparam_ioctl -> i915_cmd_parser_get_version in another file,
 * ttm_ref_object_base_unref behind vmwgfx's unref commands. A fourth
 * round finds nothing more in 6.1 (72 files more for the third, none for
 * a fourth). The installers of members that calls handing on the command
 * go through are sought in every round but the last. */
#define CLASSIFY_ROUNDS 3

/* --- calls through struct members (classify.c, installers.c) --- */

/* A call through a struct member is followed into at most this many of
 * the functions parsed initialisers assign to the member, ... */
#define MAX_MEMBER_TARGETS 8
/* ... and into this many when it hands on the command being classified
 * (tty_ioctl's ld->ops->ioctl(tty, cmd, arg)), each target then analysed
 * for that command alone. The installer files the scan follows to close
 * a member are capped the same way. */
#define MAX_COMMAND_TARGETS 64

/* --- classifying a command (classify*.c) --- */

/* Calls are followed this deep below a command's own code. Command paths
 * in 6.1 reach their state changes within four calls (tty_ioctl ->
 * tty_mode_ioctl -> set_termios -> tty_set_termios). */
#define CLASSIFY_MAX_DEPTH 6
/* Files are parsed for functions this close to a command's code only: a
 * kernel call graph's closure is most of the kernel. Beyond, the knowledge
 * file decides or the call is reported as not analysed. */
#define CLASSIFY_FOLLOW_DEPTH 2
/* How many calls deep a callee that receives the command is analysed for
 * the command (beyond, its summary for every command is used). Eight: an
 * interface query handed from sock_ioctl through a protocol's ioctl, a
 * layered socket's inner one (SMC) and an ATM device to its PHY. */
#define MAX_EXTRA_LINKS 8
/* A call passing a constant is summarised for it when the callee tests
 * the parameter, itself or in a function it hands the parameter on to
 * unchanged, this many calls deep (compat_r128_init's DRM_ROOT_ONLY
 * reaches drm_ioctl_kernel, which hands it to drm_ioctl_permit). */
#define CONST_PARAM_HOPS 2
/* Labels remembered as jumped to, per command or summary. */
#define MAX_GOTOS 256
/* The values a return may hand back, kept one by one up to this many
 * (more: not known); and how many calls deep `return f(...)` is followed
 * to learn what f returns (deeper: not known). */
#define MAX_VALUES 8
#define MAX_VALUE_DEPTH 4
/* A callback's pointer arguments whose targets a call through a
 * parameter maps (where argument j points, seen from the caller); an
 * argument past these points to what is not known. */
#define MAX_CB_ARGS 6
/* Effects are a set: the same fact reached along many call paths is kept
 * once, and a few of each kind are enough to decide and to show
 * (capability checks keep every distinct capability). Without this a
 * summary would grow with the number of paths through the call graph.
 * Stores through a parameter are counted apart from other stores, per
 * parameter: a caller drops those into its own frame, and they must not
 * crowd out the stores that stay (input_ff_upload's many stores into its
 * argument hid its store to ff->effects). */
#define MAX_PER_KIND 8
/* Evidence entries a command's verdict shows in the report, the deciding
 * kind first (a reviewer needs the decisive facts, not every path's). */
#define MAX_EVIDENCE 6

#endif
