/* handler -> commands: follows the command parameter through switches,
 * comparisons and calls (within and across files), collecting every command
 * value with the mask of bits the code actually tests. */
#ifndef IOCTL_SCAN_DISPATCH_H
#define IOCTL_SCAN_DISPATCH_H

#include "analysis_limits.h"
#include "function_index.h"
#include "knowledge.h"
#include "model.h"

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
