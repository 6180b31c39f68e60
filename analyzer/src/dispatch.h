/* handler -> commands: follows the command parameter through switches,
 * comparisons and calls (within and across files), collecting every command
 * value with the mask of bits the code actually tests. */
#ifndef IOCTL_SCAN_DISPATCH_H
#define IOCTL_SCAN_DISPATCH_H

#include "function_index.h"
#include "knowledge.h"
#include "model.h"

/* Maximum depth of calls the command is followed through, within code
 * already parsed. The deepest direct-call dispatch chain in 6.1 that we
 * know (tty_ioctl -> tty_mode_ioctl -> set_termios) is three calls; eight
 * leaves room without risking blowup. Not to be confused with scan.c's
 * FOLLOW_ROUNDS: rounds of parsing more files, one per member or file a
 * chain crosses (sock_ioctl's ATM chain needs six). */
#define DISPATCH_MAX_DEPTH 8

/* Fills h->commands, h->default_action, h->forwards_to; names of functions
 * the command reaches that are not parsed are added to wanted. */
/* Is an argument the command (held in parameter param) unchanged? */
int passes_command(const struct param_view *v, int param);

/* Does a case label or compared value, tested on a view of the command,
 * hold for a command (its value on the bits its dispatch tested)? */
enum label_match { MATCH_NO, MATCH_MAYBE, MATCH_YES };
enum label_match command_label_match(const struct command *cmd, struct param_view v,
				     const struct case_label *lab);

void dispatch_commands(struct handler *h, const struct function_index *fi,
		       const struct knowledge *kn, strvec *wanted);

#endif
